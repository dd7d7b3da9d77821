package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.WorkCompletion;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * While an application thread waits on a connection it reads the socket itself; once it stops,
 * the engine must take reading back, or a one-sided operation that arrives when nobody waits
 * would sit unread in the socket. Each round the server's thread reads a ping and answers it
 * (reading inline), then stops touching the socket while the client RDMA-Reads the server's
 * memory: the Read completes only if the server's engine reads again. Many rounds, because the
 * hand-over between the application and the engine is a race each time.
 */
@Timeout(120)
class EngineTakesBackReadingTest {

    private static final int ROUNDS = 1500;
    private static final int SIZE = 256;

    @Test
    void aReadIsServedAfterEveryInlineReaderLeaves() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            IwarpConnection server = pair.serverVerbs();
            MemoryRegion exposed = server.register(ByteBuffer.allocateDirect(SIZE), EnumSet.of(Access.REMOTE_READ));
            for (int i = 0; i < SIZE; i++) {
                exposed.buffer().put(i, (byte) (i * 7));
            }
            IwarpConnection client = pair.clientVerbs();
            MemoryRegion sink = client.register(ByteBuffer.allocateDirect(SIZE), EnumSet.of(Access.LOCAL_WRITE));
            Semaphore readDone = new Semaphore(0);
            CompletableFuture<Void> serverThread = CompletableFuture.runAsync(() -> {
                try {
                    InputStream in = pair.accepted().getInputStream();
                    OutputStream out = pair.accepted().getOutputStream();
                    for (int round = 0; round < ROUNDS; round++) {
                        int ping = in.read();
                        out.write(ping);
                        out.flush();
                        // Away from the socket until the client's Read is done: the engine's turn.
                        if (!readDone.tryAcquire(30, TimeUnit.SECONDS)) {
                            throw new TimeoutException("the client's Read of round " + round + " never ended");
                        }
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            InputStream in = pair.client().getInputStream();
            OutputStream out = pair.client().getOutputStream();
            for (int round = 0; round < ROUNDS; round++) {
                out.write(round & 0x7F);
                out.flush();
                assertEquals(round & 0x7F, in.read());
                WorkCompletion read;
                try {
                    read = client.submit(new ReadRequest().tag(round).source(exposed.remote())
                            .sink(sink.slice(0, SIZE))).get(10, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    throw new AssertionError("round " + round + ": the server's engine did not serve the RDMA Read"
                            + " within 10 s while no server thread waited", e);
                }
                assertEquals(CompletionStatus.SUCCESS, read.status(), read.toString());
                assertEquals(exposed.buffer().get(SIZE - 1), sink.buffer().get(SIZE - 1));
                readDone.release();
            }
            serverThread.get(30, TimeUnit.SECONDS);
            assertTrue(!pair.client().isClosed() && !pair.accepted().isClosed());
        }
    }
}
