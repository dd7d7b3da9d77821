package io.extsock.verbs;

/**
 * How a work request ended: a value, for futures and for code that keeps completions.
 * Polling without allocation uses {@link CompletionView} instead.
 *
 * @param tag             the request's tag
 * @param opcode          the operation
 * @param status          success or what failed
 * @param byteLength      bytes transferred (for a Receive: the Send's length)
 * @param solicited       for a Receive: the Send carried Solicited Event
 * @param invalidatedStag for a Receive of a Send with Invalidate: the local STag invalidated; else 0
 *                        (its 32 bits: {@code Integer.toUnsignedLong} for the unsigned number)
 * @param detail          for a failure: what went wrong, in words; else null
 * @param cause           for a failure: its cause as a value (a Terminate's layer/type/code, or
 *                        a local cause); else {@link CompletionCause#NONE}
 */
public record WorkCompletion(long tag, WorkOpcode opcode, CompletionStatus status, long byteLength,
                             boolean solicited, int invalidatedStag, String detail, CompletionCause cause) {

    /**
     * A completion.
     *
     * @param tag             the request's tag
     * @param opcode          the operation
     * @param status          success or what failed
     * @param byteLength      bytes transferred
     * @param solicited       for a Receive: the Send carried Solicited Event
     * @param invalidatedStag for a Receive of a Send with Invalidate: the STag invalidated; else 0
     * @param detail          for a failure: what went wrong, in words; else null
     * @param cause           for a failure: its cause as a value; else {@link CompletionCause#NONE}
     * @throws NullPointerException if cause is null
     */
    public WorkCompletion {
        java.util.Objects.requireNonNull(cause, "cause");
    }

    /**
     * A completion without a cause as a value: {@link CompletionCause#NONE}.
     *
     * @param tag             the request's tag
     * @param opcode          the operation
     * @param status          success or what failed
     * @param byteLength      bytes transferred
     * @param solicited       for a Receive: the Send carried Solicited Event
     * @param invalidatedStag for a Receive of a Send with Invalidate: the STag invalidated; else 0
     * @param detail          for a failure: what went wrong, in words; else null
     */
    public WorkCompletion(long tag, WorkOpcode opcode, CompletionStatus status, long byteLength,
                          boolean solicited, int invalidatedStag, String detail) {
        this(tag, opcode, status, byteLength, solicited, invalidatedStag, detail, CompletionCause.NONE);
    }

    /**
     * Whether the request succeeded.
     *
     * @return true if the status is {@link CompletionStatus#SUCCESS}
     */
    public boolean isSuccess() {
        return status == CompletionStatus.SUCCESS;
    }

    /**
     * The fields, with an invalidated STag in hex as every other STag is shown ({@code
     * 0x94da0602}, not its signed value).
     *
     * @return the completion in words
     */
    @Override
    public String toString() {
        return "WorkCompletion[tag=" + tag + ", opcode=" + opcode + ", status=" + status + ", byteLength=" + byteLength
                + ", solicited=" + solicited + ", invalidatedStag=" + String.format("0x%08x", invalidatedStag)
                + ", detail=" + detail + ", cause=" + cause + "]";
    }

    /**
     * Copies a view, for keeping.
     *
     * @param view a completion seen during {@link CompletionQueue#poll}
     * @return a value with the view's fields
     */
    public static WorkCompletion of(CompletionView view) {
        return new WorkCompletion(view.tag(), view.opcode(), view.status(), view.byteLength(),
                view.solicited(), view.invalidatedStag(), view.detail(), view.cause());
    }
}
