package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Registration racing with the connection's end, on real sockets: whenever the end catches a
 * registration, it fails with a checked IOException saying the connection ended; nothing
 * unchecked escapes, and a region that was registered is deregistered by the end.
 */
@Timeout(120)
class RegisterRaceTest {

    @Test
    @DisplayName("register() while the peer closes: only IOExceptions naming the end")
    void registerWhileThePeerCloses() throws Exception {
        for (int round = 0; round < 20; round++) {
            try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
                IwarpConnection server = pair.serverVerbs();
                CountDownLatch started = new CountDownLatch(1);
                CompletableFuture<Throwable> registering = CompletableFuture.supplyAsync(() -> {
                    started.countDown();
                    while (true) {
                        try {
                            MemoryRegion region = server.register(ByteBuffer.allocateDirect(64),
                                    EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
                            region.close();
                        } catch (Throwable t) {
                            return t;
                        }
                    }
                });
                assertTrue(started.await(30, TimeUnit.SECONDS));
                pair.client().close();
                Throwable failure = registering.get(60, TimeUnit.SECONDS);
                assertTrue(failure instanceof IOException, "not a checked IOException: " + failure);
                assertTrue(failure.getMessage().contains("connection has ended"), failure.getMessage());
            }
        }
    }
}
