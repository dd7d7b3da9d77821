package io.extsock.examples.perf;

import io.extsock.examples.cli.Completions;
import io.extsock.verbs.CompletionHandler;
import io.extsock.verbs.CompletionQueue;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.CompletionView;
import io.extsock.verbs.WorkOpcode;
import java.net.SocketException;
import java.util.concurrent.TimeUnit;

/**
 * Takes completions in batches, as perftest polls its completion queue (up to {@value #MOST} at
 * a time, its {@code CTX_POLL_BATCH}), through the queue's allocation-free poll: a bandwidth
 * loop that took one {@code WorkCompletion} at a time paid for an object and a wait's set-up
 * per message, which is the harness's cost, not the engine's. Any failure becomes an exception,
 * as in {@link Completions}. One instance per loop, used by one thread.
 */
final class CompletionBatch implements CompletionHandler {

    /** The most completions one take hands over: perftest's CTX_POLL_BATCH. */
    static final int MOST = 16;

    private final long[] tags = new long[MOST];
    private final WorkOpcode[] opcodes = new WorkOpcode[MOST];
    private int count;
    private String failure;

    /**
     * Waits for at least one completion and takes those there are, up to {@value #MOST}.
     *
     * @return how many were taken: see {@link #tag} and {@link #opcode}
     * @throws SocketException if one failed, or none came in {@link Completions#STALL_SECONDS}
     */
    int take(CompletionQueue queue) throws SocketException, InterruptedException {
        count = 0;
        if (queue.poll(this, MOST) == 0) {
            awaitSome(queue);
        }
        if (failure != null) {
            throw new SocketException(failure);
        }
        return count;
    }

    /** Waits and polls until a poll hands something over (another consumer may take what a wait saw first). */
    private void awaitSome(CompletionQueue queue) throws SocketException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Completions.STALL_SECONDS);
        while (true) {
            long remaining = deadline - System.nanoTime();
            boolean available = remaining > 0 && queue.await(remaining, TimeUnit.NANOSECONDS);
            if (queue.poll(this, MOST) > 0) {
                return;
            }
            if (!available) {
                throw Completions.stalled();
            }
        }
    }

    /** The tag of the {@code index}th completion the last take handed over. */
    long tag(int index) {
        return tags[index];
    }

    WorkOpcode opcode(int index) {
        return opcodes[index];
    }

    @Override
    public void onCompletion(CompletionView completion) {
        if (completion.status() != CompletionStatus.SUCCESS && failure == null) {
            failure = Completions.failure(completion.opcode(), completion.status(), completion.detail());
        }
        tags[count] = completion.tag();
        opcodes[count] = completion.opcode();
        count++;
    }
}
