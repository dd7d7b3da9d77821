package io.extsock.it.nio;

import static io.extsock.it.nio.ProvenIwarp.assertRanInIwarpMode;
import static io.extsock.it.nio.ProvenProvider.assertPrinted;
import static io.extsock.it.nio.ProvenProvider.assertRanOnExtsock;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.it.nio.programs.JettyClient;
import io.extsock.it.nio.programs.JettyServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jetty 12's server and client, both on NIO, each in a JVM of its own whose provider is
 * extsock's, over loopback: POST bodies up to 8 MiB, one by one and several at once, every byte
 * checked both ways; and a Jetty server given extsock's provider through Jetty's own extension
 * points, in a JVM whose provider is the JDK's.
 */
@Timeout(120)
class JettyIT {

    /** The POST bodies of {@code JettyClient}, and so their answers' (headers not counted). */
    static final long BODIES = 18_939_913;

    @TempDir
    Path directory;

    @Test
    void jettysClientPostsLargeBodiesToJettysServer() throws Exception {
        try (ProgramJvm server = ProgramJvm.underExtsocksProvider(directory, JettyServer.class)) {
            String port = server.awaitLine(NettyIT.LISTENING, NettyIT.LIMIT);
            try (ProgramJvm client = ProgramJvm.underExtsocksProvider(directory, JettyClient.class, port)) {
                assertEquals(0, client.awaitExit(NettyIT.LIMIT), client.toString());
                assertTrue(client.stdout().contains("verified 8 requests 18939913 bytes each way\n"), client.toString());
                assertRanOnExtsock(client, "client");
            }
            assertTrue(server.stdout().contains("server request body verified 8388608\n"), server.toString());
            assertRanOnExtsock(server, "server");
            assertPrinted(server, "server", "server-channel", ProvenProvider.SERVER_CHANNEL);
        }
    }

    /** The server JVM's provider is the JDK's: extsock's reaches Jetty through Jetty's own extension points. */
    @Test
    void jettysExtensionPointsTakeExtsocksAcceptChannelAndSelectorsWithoutTheSystemProperty() throws Exception {
        try (ProgramJvm server = ProgramJvm.plain(directory, JettyServer.class, "hook")) {
            String port = server.awaitLine(NettyIT.LISTENING, NettyIT.LIMIT);
            try (ProgramJvm client = ProgramJvm.plain(directory, JettyClient.class, port)) {
                assertEquals(0, client.awaitExit(NettyIT.LIMIT), client.toString());
                assertTrue(client.stdout().contains("verified 8 requests 18939913 bytes each way\n"), client.toString());
            }
            assertTrue(server.stdout().contains("server request body verified 8388608\n"), server.toString());
            assertPrinted(server, "server", "provider", "sun.nio.ch.EPollSelectorProvider");
            assertPrinted(server, "server", "server-channel", ProvenProvider.SERVER_CHANNEL);
            assertPrinted(server, "server", "channel", ProvenProvider.CHANNEL);
            assertPrinted(server, "server", "selector", ProvenProvider.SELECTOR);
        }
    }

    /**
     * IWARP_MODE through Jetty's own extension points: the server's accept channel opened by
     * extsock's provider with IWARP_MODE set (its JVM's provider is the JDK's), the client's
     * ClientConnector setting it on each channel (its JVM's provider is extsock's).
     */
    @Test
    void jettysClientPostsLargeBodiesToJettysServerInIwarpMode() throws Exception {
        try (ProgramJvm server = ProgramJvm.plain(directory, JettyServer.class, "iwarp")) {
            String port = server.awaitLine(NettyIT.LISTENING, NettyIT.LIMIT);
            try (ProgramJvm client = ProgramJvm.underExtsocksProvider(directory, JettyClient.class, port, "iwarp")) {
                assertEquals(0, client.awaitExit(NettyIT.LIMIT), client.toString());
                assertTrue(client.stdout().contains("verified 8 requests " + BODIES + " bytes each way\n"), client.toString());
                assertRanOnExtsock(client, "client");
                assertRanInIwarpMode(client, "client", BODIES, BODIES, NettyIT.LIMIT);
            }
            assertTrue(server.stdout().contains("server request body verified 8388608\n"), server.toString());
            assertPrinted(server, "server", "server-channel", ProvenProvider.SERVER_CHANNEL);
            assertPrinted(server, "server", "channel", ProvenProvider.CHANNEL);
            assertRanInIwarpMode(server, "server", BODIES, BODIES, NettyIT.LIMIT);
        }
    }
}
