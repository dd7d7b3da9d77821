package io.extsock.verbs;

/**
 * One completion as seen during {@link CompletionQueue#poll}: a view that is reused for the
 * next completion, so that polling allocates nothing. Copy it with {@link WorkCompletion#of}
 * to keep it.
 */
public interface CompletionView {

    /**
     * The request's tag.
     *
     * @return the tag the application gave the request
     */
    long tag();

    /**
     * The operation that completed.
     *
     * @return the request's operation
     */
    WorkOpcode opcode();

    /**
     * How the request ended.
     *
     * @return {@link CompletionStatus#SUCCESS} or what failed
     */
    CompletionStatus status();

    /**
     * The bytes transferred.
     *
     * @return the request's length; for a Receive, the length of the Send it received
     */
    long byteLength();

    /**
     * Whether a received Send carried Solicited Event.
     *
     * @return for a Receive, true if the Send was solicited; false otherwise
     */
    boolean solicited();

    /**
     * The local STag a Send with Invalidate invalidated.
     *
     * @return for a Receive of a Send with Invalidate, that STag; else 0
     */
    int invalidatedStag();

    /**
     * What went wrong, in words.
     *
     * @return for a failure, what went wrong; else null
     */
    String detail();

    /**
     * Why the request failed, as a value ({@link #detail()} says it in words).
     *
     * @return for a failure, its cause; else {@link CompletionCause#NONE}
     */
    default CompletionCause cause() {
        return CompletionCause.NONE;
    }
}
