package io.extsock.verbs;

/**
 * One completion as seen during {@link CompletionQueue#poll}: a view that is reused for the
 * next completion, so that polling allocates nothing. Copy it with {@link WorkCompletion#of}
 * to keep it.
 */
public interface CompletionView {

    long tag();

    WorkOpcode opcode();

    CompletionStatus status();

    long byteLength();

    boolean solicited();

    int invalidatedStag();

    /** For a failure, what went wrong; else null. */
    String detail();

    /** For a failure, its cause as a value ({@link #detail()} says it in words); else {@link CompletionCause#NONE}. */
    default CompletionCause cause() {
        return CompletionCause.NONE;
    }
}
