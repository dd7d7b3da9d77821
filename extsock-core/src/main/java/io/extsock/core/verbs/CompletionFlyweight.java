package io.extsock.core.verbs;

import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.CompletionView;
import io.extsock.verbs.WorkOpcode;

/**
 * The one {@link CompletionView} a {@link CompletionRing} hands to every handler: the ring copies
 * a slot into it, frees the slot and then calls the handler, so polling allocates nothing. Only
 * the consumer holding the ring's consumer lock writes it.
 */
final class CompletionFlyweight implements CompletionView {

    private long tag;
    private WorkOpcode opcode;
    private CompletionStatus status;
    private long byteLength;
    private boolean solicited;
    private int invalidatedStag;
    private String detail;
    private CompletionCause cause = CompletionCause.NONE;

    void set(long tag, WorkOpcode opcode, CompletionStatus status, long byteLength, boolean solicited,
             int invalidatedStag, String detail, CompletionCause cause) {
        this.tag = tag;
        this.opcode = opcode;
        this.status = status;
        this.byteLength = byteLength;
        this.solicited = solicited;
        this.invalidatedStag = invalidatedStag;
        this.detail = detail;
        this.cause = cause;
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
                + byteLength + ", solicited=" + solicited + ", invalidatedStag=" + invalidatedStag
                + ", detail=" + detail + ", cause=" + cause + "]";
    }
}
