package io.extsock.core.stream;

/**
 * When the writer's end sends a CREDIT message: one at a time. While one is posted and not yet
 * handed to TCP, the next update waits for it, and then one CREDIT returns everything owed by
 * then, so that a peer that floods us with messages to return cannot fill the send queue with
 * our answers. Guarded by the {@link StreamOutput}'s monitor.
 */
final class CreditUpdates {

    /** A CREDIT Send is posted and not yet handed to TCP. */
    private boolean outstanding;
    /** An update waits for the CREDIT on its way, or for the peer's next credits. */
    private boolean wanted;

    /** An update is to go: whether it is posted now (else it waits for the CREDIT on its way). */
    boolean startOrDefer() {
        if (outstanding) {
            wanted = true;
            return false;
        }
        outstanding = true;
        return true;
    }

    /** The peer returned credits: whether an update waited for them (it goes now). */
    boolean takeWanted() {
        boolean was = wanted;
        wanted = false;
        return was;
    }

    /** Our CREDIT left, or failed: whether the update that waited for it goes now. */
    boolean completed(boolean succeeded) {
        outstanding = false;
        if (succeeded && wanted) {
            wanted = false;
            return true;
        }
        return false;
    }
}
