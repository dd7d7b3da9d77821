package io.extsock.it.nio;

import static io.extsock.it.nio.ProvenIwarp.assertRanInIwarpMode;
import static io.extsock.it.nio.ProvenProvider.assertRanOnExtsock;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.it.nio.programs.NettyEchoClient;
import io.extsock.it.nio.programs.NettyHttpClient;
import io.extsock.it.nio.programs.NettyServer;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Netty 4.2 on its NIO transport in IWARP_MODE, server and client each in a JVM of its own whose
 * provider is extsock's, over loopback: the option set through Netty's own {@code
 * NioChannelOption} on the server bootstrap (its connections switch at their first use, as MPA
 * responders) and on the client's (the connection switches at connect). Every byte is checked,
 * and each end shows that its connection was in IWARP_MODE and that RDMAP Sends carried the bytes.
 */
@Timeout(120)
class NettyIwarpIT {

    static final long ECHOED = 5_020_158;
    /** The POST bodies of {@code NettyHttpClient}, and so their answers' (headers not counted). */
    static final long HTTP_BODIES = 8_454_146;

    @TempDir
    Path directory;

    @Test
    void anEchoInIwarpModeComesBackByteForByte() throws Exception {
        try (ProgramJvm server = ProgramJvm.underExtsocksProvider(directory, NettyServer.class, "iwarp", "echo")) {
            String port = server.awaitLine(NettyIT.LISTENING, NettyIT.LIMIT);
            try (ProgramJvm client = ProgramJvm.underExtsocksProvider(directory, NettyEchoClient.class, "iwarp", port)) {
                assertEquals(0, client.awaitExit(NettyIT.LIMIT), client.toString());
                assertTrue(client.stdout().contains("verified 72 messages " + ECHOED + " bytes\n"), client.toString());
                assertRanOnExtsock(client, "client");
                assertRanInIwarpMode(client, "client", ECHOED, ECHOED, NettyIT.LIMIT);
            }
            assertRanOnExtsock(server, "server");
            assertRanInIwarpMode(server, "server", ECHOED, ECHOED, NettyIT.LIMIT);
        }
    }

    @Test
    void itsHttpCodecInIwarpModeCarriesLargeBodiesBothWays() throws Exception {
        try (ProgramJvm server = ProgramJvm.underExtsocksProvider(directory, NettyServer.class, "iwarp", "http")) {
            String port = server.awaitLine(NettyIT.LISTENING, NettyIT.LIMIT);
            try (ProgramJvm client = ProgramJvm.underExtsocksProvider(directory, NettyHttpClient.class, port, "iwarp")) {
                assertEquals(0, client.awaitExit(NettyIT.LIMIT), client.toString());
                assertTrue(client.stdout().contains("verified 4 requests " + HTTP_BODIES + " bytes each way\n"),
                        client.toString());
                assertRanOnExtsock(client, "client");
                assertRanInIwarpMode(client, "client", HTTP_BODIES, HTTP_BODIES, NettyIT.LIMIT);
            }
            assertTrue(server.stdout().contains("server request body verified 8388608\n"), server.toString());
            assertRanOnExtsock(server, "server");
            assertRanInIwarpMode(server, "server", HTTP_BODIES, HTTP_BODIES, NettyIT.LIMIT);
        }
    }

    /**
     * With Netty's half-closure allowed, the server learns once that the client's output ended,
     * from the socket adaptor, which must say so although TCP under the iWARP stream stays up.
     */
    @Test
    void aHalfClosedEchoInIwarpModeEndsWithTheServersOwnClose() throws Exception {
        try (ProgramJvm server = ProgramJvm.underExtsocksProvider(directory, NettyServer.class, "iwarp",
                "echo-half-close")) {
            String port = server.awaitLine(NettyIT.LISTENING, NettyIT.LIMIT);
            try (ProgramJvm client = ProgramJvm.underExtsocksProvider(directory, NettyEchoClient.class, "iwarp", port,
                    "tcp", "half-close")) {
                assertEquals(0, client.awaitExit(NettyIT.LIMIT), client.toString());
                assertTrue(client.stdout().contains("verified 72 messages " + ECHOED + " bytes\n"), client.toString());
                assertRanInIwarpMode(client, "client", ECHOED, ECHOED, NettyIT.LIMIT);
            }
            server.awaitLine(Pattern.compile("(server input shutdown told 1 times, then read complete)\n"), NettyIT.LIMIT);
            assertRanInIwarpMode(server, "server", ECHOED, ECHOED, NettyIT.LIMIT);
        }
    }
}
