package io.extsock.core.verbs;

import io.extsock.ExtendedSocket;
import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WriteRequest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;

/**
 * Run in a child JVM by {@link OptionalNativeDependencyTest}, on a class path with or without
 * jnr-ffi: an IWARP_MODE echo on loopback, a registered region RDMA-written by the peer, then
 * ({@code pin}) registerPinned, then a plain registration again. Prints what happened, a line
 * each.
 */
public final class NativeDependencyProbe {

    private NativeDependencyProbe() {
    }

    public static void main(String[] args) throws Exception {
        boolean pin = args.length > 0 && args[0].equals("pin");
        // looked up as a resource, not a class: the probe itself must load nothing of jnr-ffi
        boolean jnr = NativeDependencyProbe.class.getClassLoader().getResource("jnr/ffi/LibraryLoader.class") != null;
        System.out.println(jnr ? "JNR present" : "JNR absent");
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            ExtendedSocket client = pair.client();
            ExtendedSocket accepted = pair.accepted();
            client.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
            accepted.getOutputStream().write(accepted.getInputStream().readNBytes(5));  // 5 octets: no thread needed
            String echoed = new String(client.getInputStream().readNBytes(5), StandardCharsets.US_ASCII);
            System.out.println("ECHO " + echoed);

            IwarpConnection mine = client.iwarp();
            IwarpConnection theirs = accepted.iwarp();
            try (MemoryRegion target = theirs.register(ByteBuffer.allocateDirect(4096),
                    EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
                 MemoryRegion source = mine.register(ByteBuffer.allocateDirect(4096), EnumSet.noneOf(Access.class))) {
                for (int i = 0; i < 4096; i++) {
                    source.buffer().put(i, (byte) (i * 7));
                }
                RemoteBuffer remote = target.remote();
                mine.post(new WriteRequest().tag(1).gather(source.slice(0, 4096)).target(remote));
                WorkCompletion done = mine.completions().take(30, TimeUnit.SECONDS);
                // a Read-free check: the Write completed, then the stream's next message arrives after it
                client.getOutputStream().write(1);
                accepted.getInputStream().read();
                boolean same = done != null && done.isSuccess();
                for (int i = 0; same && i < 4096; i++) {
                    same = target.buffer().get(i) == (byte) (i * 7);
                }
                System.out.println("WRITE " + (same ? "verified" : "broken: " + done));
            }

            if (pin) {
                try (MemoryRegion pinned = mine.registerPinned(ByteBuffer.allocateDirect(4096),
                        EnumSet.of(Access.LOCAL_WRITE))) {
                    System.out.println("PIN ok " + pinned.buffer().capacity());
                } catch (IOException e) {
                    System.out.println("PIN refused: " + e.getMessage());
                }
            }
            try (MemoryRegion again = mine.register(ByteBuffer.allocateDirect(4096), EnumSet.of(Access.REMOTE_READ))) {
                System.out.println("REGISTER after " + (again.remote().length() == 4096 ? "works" : "broken"));
            }
        }
    }
}
