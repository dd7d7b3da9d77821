package io.extsock.examples.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedServerSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The perf server takes its run from the client, so it checks what that run would make it
 * allocate: a client is not trusted to have checked its own command line.
 */
@Timeout(60)
class PerfServerRefusalTest {

    @Test
    void aReceiveDepthBeyondTheLimitIsRefusedBeforeAnythingIsPosted() throws Exception {
        SocketException refused = serveOneRun(runWithReceiveDepth(1 << 20, 64 * 1024, false));
        assertEquals("the client asked for what this server refuses: -r/--rx-depth must be from 1 to 512: 1048576",
                refused.getMessage());
    }

    @Test
    void receivesThatWouldTakeMoreThanAGibibyteAreRefused() throws Exception {
        SocketException refused = serveOneRun(runWithReceiveDepth(512, 32 << 20, false));
        assertTrue(refused.getMessage().contains("512 Receives of 32.0 MiB would take 16.0 GiB"), refused.getMessage());
    }

    @Test
    void aNegativeReceiveDepthIsRefused() throws Exception {
        SocketException refused = serveOneRun(runWithReceiveDepth(-1, 4096, true));
        assertTrue(refused.getMessage().endsWith("must be from 3 to 512 with -b (each end's control messages need 3): -1"),
                refused.getMessage());
    }

    @Test
    void aTransmitDepthBeyondTheLimitIsRefused() throws Exception {
        SocketException refused = serveOneRun(new PerfParameters(PerfTest.write_bw, PerfMode.iwarp, 4096, 100, 0, true,
                false, true, 1 << 30, 0, 1, 0));
        assertEquals("the client asked for what this server refuses: -t/--tx-depth must be from 1 to 512 (the engine's send queue): 1073741824",
                refused.getMessage());
    }

    @Test
    void aDuplexSendDepthBeyondWhatControlLeavesIsRefused() throws Exception {
        SocketException refused = serveOneRun(new PerfParameters(PerfTest.send_bw, PerfMode.iwarp, 4096, 100, 0, true,
                false, true, 512, 0, 1, 0));
        assertEquals("the client asked for what this server refuses: -t/--tx-depth must be from 1 to 496 with send_bw -b"
                + " (the send queue's 512 less the 16 its control messages may take): 512", refused.getMessage());
    }

    @Test
    void aPostListBeyondTheLimitIsRefused() throws Exception {
        SocketException refused = serveOneRun(new PerfParameters(PerfTest.tcp_bw, PerfMode.plain, 1 << 20, 100, 0, true,
                false, true, 0, 0, 100, 0));
        assertEquals("the client asked for what this server refuses: -l/--post_list 100 messages of 1.0 MiB make "
                + "writes of 100.0 MiB, more than 64.0 MiB: write fewer at a time, or smaller messages",
                refused.getMessage());
    }

    @Test
    void receivesPostedFollowTheRunOrTheTestsDefault() {
        assertEquals(7, SendPerf.receivesPosted(runWithReceiveDepth(7, 4096, false)));
        assertEquals(128, SendPerf.receivesPosted(runWithReceiveDepth(0, 4096, false)));
        assertEquals(64, SendPerf.receivesPosted(runWithReceiveDepth(0, 1 << 20, false)));
        assertEquals(3, SendPerf.receivesPosted(runWithReceiveDepth(0, 64 << 20, true)), "-b needs 3");
        assertEquals(2, SendPerf.receivesPosted(runWithReceiveDepth(0, 64 << 20, false)));
    }

    private static PerfParameters runWithReceiveDepth(int receiveDepth, int size, boolean bidirectional) {
        return new PerfParameters(PerfTest.send_bw, PerfMode.iwarp, size, 100, 0, true, false, bidirectional, 0,
                receiveDepth, 1, 0);
    }

    /** A client that sends {@code run} in plain TCP, as perf client does first; what the server's serve threw. */
    private static SocketException serveOneRun(PerfParameters run) throws Exception {
        try (ServerSocket listener = new ExtendedServerSocket()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort());
                 Socket accepted = listener.accept()) {
                run.writeTo(client.getOutputStream());
                return assertThrows(SocketException.class, () -> PerfServer.serve(accepted));
            }
        }
    }
}
