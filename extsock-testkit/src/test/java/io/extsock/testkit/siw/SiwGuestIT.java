package io.extsock.testkit.siw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The siw guest as a tool: it boots, runs commands, relays, stops; and it refuses a taken port. */
@Tag("interop")
@Timeout(900)
class SiwGuestIT {

    @Test
    void aTakenHostPortIsRefusedNamingItsHolder() throws Exception {
        try (ServerSocket holder = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int taken = holder.getLocalPort();
            IOException refused = assertThrows(IOException.class,
                    () -> SiwGuest.boot(new SiwGuest.Ports(SiwGuest.Ports.DEFAULT.rping(), SiwGuest.Ports.DEFAULT.largeRping(),
                            SiwGuest.Ports.DEFAULT.control(), taken)));
            String message = refused.getMessage();
            assertTrue(message.contains("host port " + taken + " (for guest tcp/20000) is taken"), message);
            assertTrue(message.contains("pid=" + ProcessHandle.current().pid()), "names this JVM as the holder\n" + message);
        }
    }

    @Test
    void bootsRunsCommandsRelaysAndStops() throws Exception {
        SiwGuest guest = SiwGuest.boot();
        long pid = guest.pid();
        try {
            assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
            assertTrue(guest.consoleLog().contains("SIW-GUEST READY"), guest.consoleLog());

            SiwGuest.ExecResult result = guest.exec("echo out; echo err >&2; exit 3");
            assertEquals(3, result.exitCode(), result.output());
            assertEquals("out\nerr\n", result.output());
            assertEquals("siw0\n", guest.execChecked("ls /sys/class/infiniband"));
            IOException failed = assertThrows(IOException.class, () -> guest.execChecked("cat /no/such/file"));
            assertTrue(failed.getMessage().contains("No such file"), failed.getMessage());
            IOException slow = assertThrows(IOException.class, () -> guest.exec("sleep 30", Duration.ofSeconds(2)));
            assertTrue(slow.getMessage().contains("not done after 2 s"), slow.getMessage());

            guest.awaitListening(SiwGuest.GUEST_RPING_PORT);
            guest.awaitListening(SiwGuest.GUEST_LARGE_RPING_PORT);
            assertThrows(IOException.class, () -> guest.awaitListening(4242, Duration.ofSeconds(1)));
            assertTrue(guest.dmesg().contains("SoftiWARP attached"));
            assertTrue(guest.diagnostics().contains("--- dmesg"), guest.diagnostics());

            // The reverse relay, with a plain TCP client in the guest and an echo server here.
            try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                CompletableFuture<Void> echo = CompletableFuture.runAsync(() -> {
                    try (Socket s = server.accept()) {
                        InputStream in = s.getInputStream();
                        OutputStream out = s.getOutputStream();
                        for (int b; (b = in.read()) >= 0; ) {
                            out.write(Character.toUpperCase(b));
                        }
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                try (SiwGuest.ReverseRelay relay = guest.openReverseRelay(server.getLocalPort())) {
                    String answer = guest.execChecked("echo hello from the guest | nc -w 5 " + relay.guestAddress() + " "
                            + relay.guestPort());
                    assertEquals("HELLO FROM THE GUEST\n", answer);
                }
                echo.get(30, TimeUnit.SECONDS);
            }
        } finally {
            guest.close();
        }
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "qemu " + pid + " is stopped");
        guest.close();
    }
}
