package io.extsock.rdma.siw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.IwarpOptions.Provider;
import io.extsock.testkit.siw.SiwGuest;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The device provider on a real device: in the siw guest, on siw0, with this JVM's own JDK and
 * the built classes shared in, against the software engine in this JVM, both ways (the host
 * connects; the guest connects through the guest's reverse relay): a Send each way, then an RDMA
 * Write and an RDMA Read of the server's memory, every byte checked ({@link VerbsEcho}).
 */
@Tag("interop")
@Timeout(1800)
class SiwDeviceProviderIT {

    /** Ports of this test's guest, apart from SiwInteropIT's defaults. */
    private static final SiwGuest.Ports PORTS = new SiwGuest.Ports(19899, 19898, 10123, 20100);
    private static final int GUEST_SERVER_PORT = 17700;
    private static final int HOST_FORWARD_PORT = 17700;
    private static final int GUEST_OUTLIVING_PORT = 17701;
    private static final int HOST_OUTLIVING_PORT = 17701;
    /** A JVM under QEMU's emulation takes minutes to start and run. */
    private static final Duration GUEST_JVM = Duration.ofMinutes(10);

    private static SiwGuest guest;
    private static String guestJava;

    @BeforeAll
    static void bootTheGuestWithThisJdkAndTheseClasses() throws Exception {
        Path share = Files.createDirectories(Path.of("target", "siw-share"));
        List<String> classPath = new ArrayList<>();
        int index = 0;
        for (String entry : extsockClassPath()) {
            Path source = Path.of(entry);
            String name = index++ + "-" + source.getFileName();
            copy(source, share.resolve(name));
            classPath.add("/mnt/extsock/" + name);
        }
        guest = SiwGuest.boot(PORTS, Map.of("jdk", Path.of(System.getProperty("java.home")), "extsock", share),
                Map.of(HOST_FORWARD_PORT, GUEST_SERVER_PORT, HOST_OUTLIVING_PORT, GUEST_OUTLIVING_PORT));
        guestJava = "/mnt/jdk/bin/java -XX:TieredStopAtLevel=1 -Xmx160m --enable-native-access=ALL-UNNAMED -cp "
                + String.join(":", classPath) + " " + VerbsEcho.class.getName();
    }

    @AfterAll
    static void stopTheGuest() throws InterruptedException {
        if (guest != null) {
            guest.close();
        }
    }

    @Test
    void theSoftwareEngineConnectsToTheDeviceProviderOnSiw() throws Exception {
        guest.execChecked(guestJava + " server " + SiwGuest.GUEST_ADDRESS + " " + GUEST_SERVER_PORT
                + " device </dev/null >/tmp/device-server.log 2>&1 &");
        awaitDeviceListener(GUEST_SERVER_PORT);
        String message = "from the software engine to siw0, " + "0123456789".repeat(20);
        VerbsEcho.client(new InetSocketAddress(InetAddress.getLoopbackAddress(), HOST_FORWARD_PORT), Provider.SOFTWARE,
                message.getBytes(StandardCharsets.UTF_8));
        String log = awaitGuestLine("/tmp/device-server.log", "server echoed ");
        assertTrue(log.contains("server echoed " + message.length() + " bytes: " + message
                + ", written back, on DEVICE siw0"), log);
    }

    @Test
    void theDeviceProviderOnSiwConnectsToTheSoftwareEngine() throws Exception {
        VerbsEcho.Buffers buffers = new VerbsEcho.Buffers();
        try (ExtendedServerSocket server = VerbsEcho.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                Provider.SOFTWARE, buffers);
             SiwGuest.ReverseRelay relay = guest.openReverseRelay(server.getLocalPort())) {
            CompletableFuture<String> served = CompletableFuture.supplyAsync(() -> {
                try {
                    return VerbsEcho.serveOne(server, buffers);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            String message = "from siw0 to the software engine, " + "abcdefghij".repeat(20);
            SiwGuest.ExecResult client = guest.exec(guestJava + " client " + relay.guestAddress() + " "
                    + relay.guestPort() + " device '" + message + "'", GUEST_JVM);
            assertEquals(0, client.exitCode(), client.output());
            assertTrue(client.output().contains("client connected IwarpConnection[peer=" + relay.guestAddress()),
                    client.output());
            assertTrue(client.output().contains("provider=DEVICE, device=siw0]"), client.output());
            assertTrue(client.output().contains("client got its " + message.length() + " bytes back"), client.output());
            assertTrue(client.output().contains("client wrote " + message.length() + " bytes and read "
                    + VerbsEcho.SERVER_PATTERN.length + " bytes of RemoteBuffer"), client.output());
            assertEquals(message.length() + " bytes: " + message + ", written back, on SOFTWARE ",
                    served.get(GUEST_JVM.toSeconds(), TimeUnit.SECONDS));
        }
    }

    @Test
    void thePeersEndFlushesTheDeviceConnectionsReceivesAsALostConnection() throws Exception {
        guest.execChecked(guestJava + " outlive " + SiwGuest.GUEST_ADDRESS + " " + GUEST_OUTLIVING_PORT
                + " device </dev/null >/tmp/device-outlive.log 2>&1 &");
        awaitDeviceListener(GUEST_OUTLIVING_PORT);
        try (ExtendedSocket peer = new ExtendedSocket()) {
            peer.setOption(IwarpOptions.STREAMS, false);
            peer.setOption(IwarpOptions.PROVIDER, Provider.SOFTWARE);
            peer.setOption(IwarpOptions.MPA_TIMEOUT, (int) GUEST_JVM.toMillis());
            peer.setOption(IwarpOptions.IWARP_MODE, true);
            peer.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), HOST_OUTLIVING_PORT));
        }
        String log = awaitGuestLine("/tmp/device-outlive.log", "the first completion");
        assertTrue(log.contains("the first completion after the peer's end: RECEIVE FLUSHED CONNECTION_LOST"), log);
    }

    /** Until rdma_cm listens on the port (the server socket's own TCP listener comes first and goes). */
    private static void awaitDeviceListener(int port) throws Exception {
        long deadline = System.nanoTime() + GUEST_JVM.toNanos();
        String listening = "";
        while (System.nanoTime() < deadline) {
            listening = guest.exec("rdma res show cm_id | grep LISTEN | grep ':" + port + " '; cat /tmp/device-server.log",
                    Duration.ofSeconds(60)).output();
            if (listening.contains("LISTEN")) {
                return;
            }
            if (listening.contains("Exception")) {
                break;
            }
            Thread.sleep(1000);
        }
        throw new AssertionError("no rdma_cm listener on the guest's port " + port + ":\n" + listening);
    }

    /** The guest file's content once it has a line with {@code marker}, or the failure it shows. */
    private static String awaitGuestLine(String file, String marker) throws Exception {
        long deadline = System.nanoTime() + GUEST_JVM.toNanos();
        String content = "";
        while (System.nanoTime() < deadline) {
            content = guest.exec("cat " + file, Duration.ofSeconds(60)).output();
            if (content.contains(marker) || content.contains("Exception")) {
                return content;
            }
            Thread.sleep(1000);
        }
        return content;
    }

    /** This module's classes and extsock's jars on the test's path, which the guest's JVM needs. */
    private static List<String> extsockClassPath() {
        List<String> entries = new ArrayList<>();
        for (String property : new String[] {"java.class.path", "jdk.module.path"}) {
            String value = System.getProperty(property, "");
            for (String entry : value.split(File.pathSeparator)) {
                if (entry.contains("extsock-api") || entry.contains("extsock-core")
                        || entry.contains("extsock-rdma")) {
                    if (!entry.isEmpty() && !entries.contains(entry) && !entry.contains("tests.jar")) {
                        entries.add(entry);
                    }
                }
            }
        }
        return entries;
    }

    private static void copy(Path source, Path target) throws IOException {
        if (Files.isDirectory(source)) {
            try (Stream<Path> tree = Files.walk(source)) {
                for (Path path : (Iterable<Path>) tree::iterator) {
                    Path to = target.resolve(source.relativize(path).toString());
                    if (Files.isDirectory(path)) {
                        Files.createDirectories(to);
                    } else {
                        Files.copy(path, to, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
        } else {
            Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
