package io.extsock.it.nio;

import static io.extsock.it.nio.ProvenProvider.assertPrinted;
import static io.extsock.it.nio.ProvenProvider.assertRanOnExtsock;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.it.nio.programs.NettyEchoClient;
import io.extsock.it.nio.programs.NettyHttpClient;
import io.extsock.it.nio.programs.NettyServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Netty 4.2 on its NIO transport, server and client each in a JVM of its own over loopback, on
 * extsock's provider: made the JVM's by the system property, with Netty as its users write it;
 * or handed to Netty through its own parameters ({@code NioIoHandler.newFactory(provider, ...)},
 * {@code new NioServerSocketChannel(provider)}, {@code new NioSocketChannel(provider)}) in JVMs
 * whose provider is the JDK's. Every byte is checked.
 */
@Timeout(120)
class NettyIT {

    static final Duration LIMIT = Duration.ofSeconds(60);
    static final Pattern LISTENING = Pattern.compile("listening (\\d+)\n");

    @TempDir
    Path directory;

    @Test
    void anEchoOfMessagesFromOneByteTo256KiBComesBackByteForByte() throws Exception {
        try (ProgramJvm server = ProgramJvm.underExtsocksProvider(directory, NettyServer.class, "jvm", "echo")) {
            String port = server.awaitLine(LISTENING, LIMIT);
            try (ProgramJvm client = ProgramJvm.underExtsocksProvider(directory, NettyEchoClient.class, "jvm", port)) {
                assertEquals(0, client.awaitExit(LIMIT), client.toString());
                assertTrue(client.stdout().contains("verified 72 messages 5020158 bytes\n"), client.toString());
                assertRanOnExtsock(client, "client");
            }
            assertRanOnExtsock(server, "server");
        }
    }

    @Test
    void anEchoOverChannelsOpenedForIpv6ComesBackByteForByte() throws Exception {
        try (ProgramJvm server = ProgramJvm.underExtsocksProvider(directory, NettyServer.class, "jvm", "echo", "tcp6")) {
            String port = server.awaitLine(LISTENING, LIMIT);
            try (ProgramJvm client = ProgramJvm.underExtsocksProvider(directory, NettyEchoClient.class, "jvm", port,
                    "tcp6")) {
                assertEquals(0, client.awaitExit(LIMIT), client.toString());
                assertTrue(client.stdout().contains("verified 72 messages 5020158 bytes\n"), client.toString());
                assertRanOnExtsock(client, "client");
            }
            assertRanOnExtsock(server, "server");
        }
    }

    /** UNIX-domain channels are the JDK's own under extsock's provider, hosted by its selectors. */
    @Test
    void anEchoOverUnixDomainChannelsComesBackByteForByte() throws Exception {
        String transport = "unix=" + directory.resolve("echo.socket");
        try (ProgramJvm server = ProgramJvm.underExtsocksProvider(directory, NettyServer.class, "jvm", "echo", transport)) {
            server.awaitLine(LISTENING, LIMIT);
            try (ProgramJvm client = ProgramJvm.underExtsocksProvider(directory, NettyEchoClient.class, "jvm", "0",
                    transport)) {
                assertEquals(0, client.awaitExit(LIMIT), client.toString());
                assertTrue(client.stdout().contains("verified 72 messages 5020158 bytes\n"), client.toString());
                assertPrinted(client, "client", "provider", ProvenProvider.EXTSOCKS);
                assertPrinted(client, "client", "channel", "sun.nio.ch.SocketChannelImpl");
                assertPrinted(client, "client", "selector", ProvenProvider.SELECTOR);
            }
            assertPrinted(server, "server", "provider", ProvenProvider.EXTSOCKS);
            assertPrinted(server, "server", "channel", "sun.nio.ch.SocketChannelImpl");
            assertPrinted(server, "server", "selector", ProvenProvider.SELECTOR);
        }
    }

    @Test
    void itsHttpCodecCarriesLargeBodiesBothWays() throws Exception {
        try (ProgramJvm server = ProgramJvm.underExtsocksProvider(directory, NettyServer.class, "jvm", "http")) {
            String port = server.awaitLine(LISTENING, LIMIT);
            try (ProgramJvm client = ProgramJvm.underExtsocksProvider(directory, NettyHttpClient.class, port)) {
                assertEquals(0, client.awaitExit(LIMIT), client.toString());
                assertTrue(client.stdout().contains("verified 4 requests 8454146 bytes each way\n"), client.toString());
                assertRanOnExtsock(client, "client");
            }
            assertTrue(server.stdout().contains("server request body verified 8388608\n"), server.toString());
            assertRanOnExtsock(server, "server");
        }
    }

    @Test
    void nettysOwnProviderParametersTakeExtsocksProviderWithoutTheSystemProperty() throws Exception {
        try (ProgramJvm server = ProgramJvm.plain(directory, NettyServer.class, "hook", "echo")) {
            String port = server.awaitLine(LISTENING, LIMIT);
            try (ProgramJvm client = ProgramJvm.plain(directory, NettyEchoClient.class, "hook", port)) {
                assertEquals(0, client.awaitExit(LIMIT), client.toString());
                assertTrue(client.stdout().contains("verified 72 messages 5020158 bytes\n"), client.toString());
                assertPrinted(client, "client", "provider", "sun.nio.ch.EPollSelectorProvider");
                assertPrinted(client, "client", "channel", ProvenProvider.CHANNEL);
                assertPrinted(client, "client", "selector", ProvenProvider.SELECTOR);
            }
            assertPrinted(server, "server", "provider", "sun.nio.ch.EPollSelectorProvider");
            assertPrinted(server, "server", "channel", ProvenProvider.CHANNEL);
            assertPrinted(server, "server", "selector", ProvenProvider.SELECTOR);
        }
    }
}
