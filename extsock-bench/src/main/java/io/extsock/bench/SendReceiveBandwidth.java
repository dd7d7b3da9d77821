package io.extsock.bench;

import io.extsock.verbs.SendRequest;
import java.io.IOException;

/**
 * Streaming of Sends into the peer's ring of posted Receives: MB/s per round.
 *
 * <p>Flow control is by credits, as RDMA applications do it: a Send that finds no posted
 * Receive is a protocol error that ends the connection, so the sender never has more Sends
 * unacknowledged than the receiver's ring holds. The receiver posts each Receive again as
 * soon as it has taken its message and, every {@link #CREDIT_BATCH} messages, answers with a
 * Send of how many it has taken so far. Its answer to the last message stops the clock, as the
 * acknowledgement byte does in the stream measurement.
 */
final class SendReceiveBandwidth implements Contender {

    /** Messages per credit Send: a quarter of the ring, so the sender rarely waits for credit. */
    static final int CREDIT_BATCH = VerbsPair.RING_DEPTH / 4;
    private static final int CREDIT_BYTES = 2 * DataPattern.STAMP_BYTES;

    private final VerbsEndpoint sender;
    private final VerbsEndpoint receiver;
    private final int size;
    private final long messages;
    private final SendRequest[] sends;
    private final SendRequest[] credits;

    /** {@code total} bytes (at least a few messages) in Sends of {@code size} bytes, client to server. */
    SendReceiveBandwidth(VerbsPair pair, int size, long total) {
        this.sender = pair.client;
        this.receiver = pair.server;
        this.size = size;
        this.messages = Math.max(4, total / size);
        this.sends = sender.sendsFromEverySlot(size);
        this.credits = receiver.sendsFromEverySlot(CREDIT_BYTES);
    }

    @Override
    public void serve(int round) throws IOException {
        if (round == 0) {
            receiver.refillOutbox();
        }
        for (long taken = 1; taken <= messages; taken++) {
            int slot = receiver.awaitMessage();
            receiver.checkMessage(slot, size, DataPattern.sequence(round, taken - 1), round == 0);
            receiver.repost(slot);
            if (taken % CREDIT_BATCH == 0 || taken == messages) {
                int out = receiver.claimSlot();
                receiver.stampOutbox(out, CREDIT_BYTES, DataPattern.sequence(round, taken));
                receiver.post(credits[out]);
            }
        }
    }

    @Override
    public double run(int round) throws IOException {
        if (round == 0) {
            sender.refillOutbox();
        }
        long start = System.nanoTime();
        long sent = 0;
        long taken = 0;  // by the receiver, as its last credit said
        while (taken < messages) {
            if (sent < messages && sent - taken < receiver.ringDepth && sender.hasFreeSlot()) {
                int out = sender.claimSlot();
                sender.stampOutbox(out, size, DataPattern.sequence(round, sent));
                sender.post(sends[out]);
                sent++;
            } else if (sender.hasMessage()) {
                int slot = sender.awaitMessage();
                long credit = sender.inboxBuffer().getLong(sender.inboxOffset(slot));
                sender.checkMessage(slot, CREDIT_BYTES, credit, false);
                long count = credit & 0xFFFF_FFFFL;
                if (credit != DataPattern.sequence(round, count) || count <= taken || count > sent) {
                    throw new IOException("credit for " + count + " messages in round " + round + " ("
                            + Long.toHexString(credit) + ") after " + taken + ", with " + sent + " sent");
                }
                taken = count;
                sender.repost(slot);
            } else {
                sender.progress();
            }
        }
        long elapsed = System.nanoTime() - start;
        return messages * size / (elapsed / 1e9) / 1e6;
    }
}
