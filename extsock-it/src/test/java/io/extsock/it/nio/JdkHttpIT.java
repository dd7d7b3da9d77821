package io.extsock.it.nio;

import static io.extsock.it.nio.ProvenProvider.assertPrinted;
import static io.extsock.it.nio.ProvenProvider.assertRanOnExtsock;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.it.nio.programs.JdkHttpClient;
import io.extsock.it.nio.programs.JdkHttpServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JDK's {@code java.net.http.HttpClient} against the JDK's {@code com.sun.net.httpserver}
 * server, both built on NIO, each in a JVM of its own whose provider is extsock's, over loopback:
 * POST bodies up to 8 MiB, one by one and several at once, every byte checked both ways. The
 * {@code --add-opens} only let each program print which channels and selector the JDK's code used.
 */
@Timeout(120)
class JdkHttpIT {

    @TempDir
    Path directory;

    @Test
    void theJdksClientPostsLargeBodiesToTheJdksServer() throws Exception {
        try (ProgramJvm server = ProgramJvm.start(options("jdk.httpserver/sun.net.httpserver"), directory,
                JdkHttpServer.class)) {
            String port = server.awaitLine(NettyIT.LISTENING, NettyIT.LIMIT);
            try (ProgramJvm client = ProgramJvm.start(options("java.net.http/jdk.internal.net.http"), directory,
                    JdkHttpClient.class, port)) {
                assertEquals(0, client.awaitExit(NettyIT.LIMIT), client.toString());
                assertTrue(client.stdout().contains("verified 8 requests 18939913 bytes each way\n"), client.toString());
                assertRanOnExtsock(client, "client");
            }
            assertTrue(server.stdout().contains("server request body verified 8388608\n"), server.toString());
            assertRanOnExtsock(server, "server");
            assertPrinted(server, "server", "server-channel", ProvenProvider.SERVER_CHANNEL);
        }
    }

    private static List<String> options(String openedPackage) {
        List<String> options = new ArrayList<>(ProgramJvm.EXTSOCK_PROVIDER);
        options.add("--add-opens");
        options.add(openedPackage + "=ALL-UNNAMED");
        return options;
    }
}
