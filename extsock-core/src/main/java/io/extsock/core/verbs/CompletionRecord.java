package io.extsock.core.verbs;

import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.CompletionView;
import io.extsock.verbs.WorkOpcode;

/**
 * One completion, as it travels from the queue pair to a {@link WorkCompleter} and from there
 * into a {@link CompletionRing}, and as the ring hands it to a handler: a mutable record that
 * its owner fills and reuses, so completing allocates nothing. Whoever receives one reads it
 * during the call only (the next completion overwrites it); keep one with {@link
 * io.extsock.verbs.WorkCompletion#of}. Each instance has one writer at a time: its owner says which.
 */
public final class CompletionRecord implements CompletionView {

    private long tag;
    private WorkOpcode opcode;
    private CompletionStatus status;
    private long byteLength;
    private boolean solicited;
    private int invalidatedStag;
    private String detail;
    private CompletionCause cause = CompletionCause.NONE;

    /** @param detail for a failure, what went wrong; null on success */
    public CompletionRecord set(long tag, WorkOpcode opcode, CompletionStatus status, long byteLength,
                                boolean solicited, int invalidatedStag, String detail, CompletionCause cause) {
        this.tag = tag;
        this.opcode = opcode;
        this.status = status;
        this.byteLength = byteLength;
        this.solicited = solicited;
        this.invalidatedStag = invalidatedStag;
        this.detail = detail;
        this.cause = cause;
        return this;
    }

    @Override
    public long tag() {
        return tag;
    }

    @Override
    public WorkOpcode opcode() {
        return opcode;
    }

    @Override
    public CompletionStatus status() {
        return status;
    }

    @Override
    public long byteLength() {
        return byteLength;
    }

    @Override
    public boolean solicited() {
        return solicited;
    }

    @Override
    public int invalidatedStag() {
        return invalidatedStag;
    }

    @Override
    public String detail() {
        return detail;
    }

    @Override
    public CompletionCause cause() {
        return cause;
    }

    @Override
    public String toString() {
        return "CompletionView[tag=" + tag + ", opcode=" + opcode + ", status=" + status + ", byteLength="
                + byteLength + ", solicited=" + solicited + ", invalidatedStag=" + Stag.toString(invalidatedStag)
                + ", detail=" + detail + ", cause=" + cause + "]";
    }
}
