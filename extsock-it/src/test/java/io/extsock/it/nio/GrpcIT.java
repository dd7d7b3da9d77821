package io.extsock.it.nio;

import static io.extsock.it.nio.ProvenIwarp.assertRanInIwarpMode;
import static io.extsock.it.nio.ProvenProvider.assertPrinted;
import static io.extsock.it.nio.ProvenProvider.assertRanOnExtsock;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.it.nio.programs.GrpcClient;
import io.extsock.it.nio.programs.GrpcServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * grpc-java (grpc-netty) on Netty's NIO transport, server and client each in a JVM of its own
 * whose provider is extsock's, over loopback: unary calls with messages up to 8 MiB, one by one
 * and several at once on one HTTP/2 connection, every byte checked both ways.
 */
@Timeout(120)
class GrpcIT {

    /** The messages of {@code GrpcClient}'s calls, and so their answers' (grpc's framing not counted). */
    static final long MESSAGES = 18_939_913;

    @TempDir
    Path directory;

    @Test
    void grpcCallsCarryLargeMessagesBothWays() throws Exception {
        try (ProgramJvm server = ProgramJvm.underExtsocksProvider(directory, GrpcServer.class)) {
            String port = server.awaitLine(NettyIT.LISTENING, NettyIT.LIMIT);
            try (ProgramJvm client = ProgramJvm.underExtsocksProvider(directory, GrpcClient.class, port)) {
                assertEquals(0, client.awaitExit(NettyIT.LIMIT), client.toString());
                assertTrue(client.stdout().contains("verified 8 calls 18939913 bytes each way\n"), client.toString());
                assertRanOnExtsock(client, "client");
            }
            assertTrue(server.stdout().contains("server request verified 8388608\n"), server.toString());
            assertPrinted(server, "server", "provider", ProvenProvider.EXTSOCKS);
            assertPrinted(server, "server", "channel", ProvenProvider.SERVER_CHANNEL);
            assertPrinted(server, "server", "selector", ProvenProvider.SELECTOR);
        }
    }

    /** IWARP_MODE set through grpc's own {@code withOption} for Netty's channel options, at both ends. */
    @Test
    void grpcCallsInIwarpModeCarryLargeMessagesBothWays() throws Exception {
        try (ProgramJvm server = ProgramJvm.underExtsocksProvider(directory, GrpcServer.class, "iwarp")) {
            String port = server.awaitLine(NettyIT.LISTENING, NettyIT.LIMIT);
            try (ProgramJvm client = ProgramJvm.underExtsocksProvider(directory, GrpcClient.class, port, "iwarp")) {
                assertEquals(0, client.awaitExit(NettyIT.LIMIT), client.toString());
                assertTrue(client.stdout().contains("verified 8 calls " + MESSAGES + " bytes each way\n"), client.toString());
                assertRanOnExtsock(client, "client");
                assertRanInIwarpMode(client, "client", MESSAGES, MESSAGES, NettyIT.LIMIT);
            }
            assertTrue(server.stdout().contains("server request verified 8388608\n"), server.toString());
            assertPrinted(server, "server", "channel", ProvenProvider.SERVER_CHANNEL);
            assertRanInIwarpMode(server, "server", MESSAGES, MESSAGES, NettyIT.LIMIT);
        }
    }
}
