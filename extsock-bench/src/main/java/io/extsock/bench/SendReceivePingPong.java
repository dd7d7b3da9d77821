package io.extsock.bench;

import io.extsock.verbs.SendRequest;
import java.io.IOException;

/**
 * Round trip of a Send answered by a Send (ping-pong over posted Receives): median per round,
 * microseconds. An iteration is everything the application does per round trip: stamp and
 * post the ping, wait for the pong, check it and post its Receive again.
 */
final class SendReceivePingPong implements Contender {

    private final VerbsEndpoint client;
    private final VerbsEndpoint server;
    private final int size;
    private final int iterations;
    private final SendRequest[] pings;
    private final SendRequest[] pongs;
    private final long[] nanos;

    SendReceivePingPong(VerbsPair pair, int size, int iterations) {
        if (size < 2 * DataPattern.STAMP_BYTES) {
            throw new IllegalArgumentException("messages carry two stamps: at least 16 bytes");
        }
        this.client = pair.client;
        this.server = pair.server;
        this.size = size;
        this.iterations = iterations;
        this.pings = client.sendsFromEverySlot(size);
        this.pongs = server.sendsFromEverySlot(size);
        this.nanos = new long[iterations];
    }

    @Override
    public void serve(int round) throws IOException {
        if (round == 0) {
            server.refillOutbox();
        }
        for (int i = 0; i < iterations; i++) {
            long sequence = DataPattern.sequence(round, i);
            int slot = server.awaitMessage();
            server.checkMessage(slot, size, sequence, round == 0);
            int out = server.claimSlot();
            server.stampOutbox(out, size, sequence);
            server.post(pongs[out]);
            // Posted again after the answer: no ping comes before it, and the rest of the ring is posted.
            server.repost(slot);
        }
    }

    @Override
    public double run(int round) throws IOException {
        if (round == 0) {
            client.refillOutbox();
        }
        for (int i = 0; i < iterations; i++) {
            long sequence = DataPattern.sequence(round, i);
            long start = System.nanoTime();
            int out = client.claimSlot();
            client.stampOutbox(out, size, sequence);
            client.post(pings[out]);
            int slot = client.awaitMessage();
            client.checkMessage(slot, size, sequence, round == 0);  // round 0 is a warm-up: its time is not used
            client.repost(slot);
            nanos[i] = System.nanoTime() - start;
        }
        return Stats.median(nanos) / 1_000.0;
    }
}
