package io.extsock.examples.cli;

import io.extsock.verbs.CompletionQueue;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WorkOpcode;
import java.net.SocketException;
import java.util.concurrent.TimeUnit;

/** Taking completions off a connection's queue, any failure turned into an exception. */
public final class Completions {

    /** A connection that completes nothing for this long is stuck (or its peer is gone). */
    public static final long STALL_SECONDS = 30;

    private Completions() {
    }

    /** The next completion, which must be a success. */
    public static WorkCompletion next(CompletionQueue queue) throws SocketException, InterruptedException {
        WorkCompletion completion = queue.take(STALL_SECONDS, TimeUnit.SECONDS);
        if (completion == null) {
            throw stalled();
        }
        if (!completion.isSuccess()) {
            throw new SocketException(failure(completion.opcode(), completion.status(), completion.detail()));
        }
        return completion;
    }

    /** Nothing completed for {@link #STALL_SECONDS}. */
    public static SocketException stalled() {
        return new SocketException("nothing completed in " + STALL_SECONDS + " s: the peer stopped responding");
    }

    /** What a failed completion says, in one line. */
    public static String failure(WorkOpcode opcode, CompletionStatus status, String detail) {
        return opcode + " failed: " + status + (detail != null ? ": " + detail : "");
    }
}
