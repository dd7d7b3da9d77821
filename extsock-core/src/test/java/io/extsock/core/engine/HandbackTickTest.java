package io.extsock.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.WorkCompletion;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * While an application thread stays blocked in a read, its progress thread's hand-back tick
 * slows down to {@link ProgressThread#LONGEST_TICK_MILLIS} (an idle JVM with blocked readers
 * used to tick a thousand times a second); when the read ends, the tick is quick again and the
 * engine takes reading back, so a one-sided operation that arrives afterwards, with nobody
 * waiting, is served.
 */
@Timeout(60)
class HandbackTickTest {

    @Test
    void aLongWaitSlowsTheTickAndItsEndBringsTheHandBack() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            MemoryRegion exposed = pair.clientVerbs().register(ByteBuffer.allocateDirect(64),
                    EnumSet.of(Access.REMOTE_READ));
            exposed.buffer().put(63, (byte) 42);
            CompletableFuture<Integer> blockedRead = CompletableFuture.supplyAsync(() -> {
                try {
                    return pair.client().getInputStream().read();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });

            assertTrue(eventually(() -> ProgressEngine.instance().threads().stream()
                    .anyMatch(t -> t.tickStretched() && t.tickMillis() == ProgressThread.LONGEST_TICK_MILLIS)),
                    "a progress thread slowed its tick while the client's reader stayed blocked");

            pair.accepted().getOutputStream().write(7);
            assertEquals(7, blockedRead.get(10, TimeUnit.SECONDS));
            assertTrue(eventually(() -> ProgressEngine.instance().threads().stream().noneMatch(ProgressThread::tickStretched)),
                    "the tick is quick again once the wait ended");

            // Nobody waits on the client's end now: its engine must read the server's Read Request.
            MemoryRegion sink = pair.serverVerbs().register(ByteBuffer.allocateDirect(64), EnumSet.of(Access.LOCAL_WRITE));
            WorkCompletion read = pair.serverVerbs().submit(new ReadRequest().tag(1).source(exposed.remote())
                    .sink(sink.slice(0, 64))).get(10, TimeUnit.SECONDS);
            assertEquals(CompletionStatus.SUCCESS, read.status(), read.toString());
            assertEquals(42, sink.buffer().get(63));
        }
    }

    private static boolean eventually(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(5);  // a polling interval
        }
        return condition.getAsBoolean();
    }
}
