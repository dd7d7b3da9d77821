package io.extsock.core.proof;

import static io.extsock.core.proof.VerbsScenario.REGION;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.IwarpSetup;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The far end of {@link TwoProcessVerbs}, in its own JVM: an ExtendedServerSocket in
 * IWARP_MODE on the iWARP port, and a plain TCP control connection on a second port through
 * which the test names each scenario ({@code RUN <scenario>}) and the child reports what it saw,
 * one line each:
 * <pre>
 *   C &lt;tag&gt; &lt;opcode&gt; &lt;status&gt; &lt;length&gt; &lt;solicited&gt; &lt;invalidated STag, hex&gt;
 *     &lt;cause: origin/layer/type/code&gt; &lt;detail&gt;   a completion
 *   DESCRIPTOR &lt;status&gt;   how the Send of its region's descriptor completed
 *   SHA &lt;tag&gt; &lt;hex&gt;        SHA-256 of what a Receive got; "target": of the region the test
 *                          wrote into; "expected": what the test's Send says it must be
 *   VALID &lt;bool&gt;           whether the advertised region is still valid
 *   UNTOUCHED &lt;bool&gt;       whether the advertised region still holds only zeros
 *   INVALIDATED / DEREGISTERED   the region is dead (answers to a Send with Invalidate, to DEREGISTER)
 *   ENDED &lt;reason&gt;         the connection ended, and the reason the engine gave
 *   FAIL &lt;what&gt;           something the child did not expect
 *   DONE &lt;scenario&gt;       the scenario is over on this side (the connection is closed)
 * </pre>
 * The test sends {@code DEREGISTER} and {@code CLOSE} within scenarios and {@code QUIT} at the
 * end. Only the iWARP port is captured: the control connection stays off the wire judge's port.
 *
 * <p>Usage: {@code VerbsPeerProcess <iwarp port> <control port>}. Exits 0 after QUIT, 1 if the
 * control connection breaks, 2 if the watchdog fires (with a thread dump).
 */
public final class VerbsPeerProcess {

    private static final Set<Access> REMOTE_RW = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ,
            Access.REMOTE_WRITE);
    private static final long WAIT_SECONDS = 20;
    private static final long WATCHDOG_SECONDS = 150;

    private final ExtendedServerSocket server;
    private final BufferedReader control;
    private final PrintWriter report;

    private VerbsPeerProcess(ExtendedServerSocket server, BufferedReader control, PrintWriter report) {
        this.server = server;
        this.control = control;
        this.report = report;
    }

    public static void main(String[] args) throws Exception {
        int iwarpPort = Integer.parseInt(args[0]);
        int controlPort = Integer.parseInt(args[1]);
        startWatchdog();
        Proof.warmUpTerminate();
        try (ExtendedServerSocket server = new ExtendedServerSocket();
             ServerSocket controlServer = new ServerSocket()) {
            server.setOption(IwarpOptions.IWARP_MODE, true);
            server.setOption(IwarpOptions.STREAMS, false);
            server.setReceiveBufferSize(VerbsScenario.RECEIVE_BUFFER);  // accepted sockets inherit it
            server.bind(new InetSocketAddress(Proof.LOOPBACK, iwarpPort));
            server.setSoTimeout((int) TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            // The control port opens last: once the test reaches it, the iWARP port listens.
            controlServer.bind(new InetSocketAddress(Proof.LOOPBACK, controlPort));
            controlServer.setSoTimeout(60_000);
            System.out.println("verbs peer: listening on " + iwarpPort + ", control on " + controlPort);
            try (Socket controlSocket = controlServer.accept()) {
                VerbsPeerProcess peer = new VerbsPeerProcess(server,
                        new BufferedReader(new InputStreamReader(controlSocket.getInputStream(), StandardCharsets.UTF_8)),
                        new PrintWriter(controlSocket.getOutputStream(), true, StandardCharsets.UTF_8));
                if (!peer.serve()) {
                    System.out.println("verbs peer: the control connection ended without QUIT");
                    System.exit(1);
                }
            }
        }
        System.out.println("verbs peer: done");
    }

    private static void startWatchdog() {
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(TimeUnit.SECONDS.toMillis(WATCHDOG_SECONDS));  // the watchdog's delay
            } catch (InterruptedException e) {
                return;
            }
            System.out.println("verbs peer: still running after " + WATCHDOG_SECONDS + " s\n" + Proof.threadDump());
            System.out.flush();
            Runtime.getRuntime().halt(2);
        }, "watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /** Runs scenarios until QUIT (true) or the end of the control connection (false). */
    private boolean serve() throws IOException {
        for (String line; (line = control.readLine()) != null; ) {
            if (line.equals("QUIT")) {
                return true;
            }
            if (!line.startsWith("RUN ")) {
                say("FAIL unexpected command: " + line);
                continue;
            }
            VerbsScenario scenario = VerbsScenario.valueOf(line.substring(4).trim());
            System.out.println("verbs peer: " + scenario);
            try {
                run(scenario);
            } catch (Throwable t) {
                t.printStackTrace(System.out);
                say("FAIL " + scenario + ": " + oneLine(t));
            }
            say("DONE " + scenario);
        }
        return false;
    }

    private void run(VerbsScenario scenario) throws Exception {
        Side side = new Side();
        try (ExtendedSocket socket = server.accept()) {
            if (scenario == VerbsScenario.STREAM_ECHO) {
                socket.setOption(IwarpOptions.STREAMS, true);
                echo(socket);
                return;
            }
            socket.setOption(IwarpOptions.SETUP, side.setupFor(scenario));
            IwarpConnection verbs = socket.iwarp();  // the deferred switch, with the setup above
            side.verbs = verbs;
            if (scenario.peerSendsDescriptor) {
                sendDescriptor(verbs, side.region);  // reports DESCRIPTOR <status>
            }
            switch (scenario) {
                case SEND_RECEIVE -> sendReceive(side);
                case RDMA_WRITE -> rdmaWrite(side);
                case RDMA_READ, READ_INVALID_STAG, READ_OUT_OF_BOUNDS, READ_WITHOUT_RIGHT, WRITE_INVALID_STAG,
                        WRITE_OUT_OF_BOUNDS, WRITE_WITHOUT_RIGHT, SEND_NO_RECEIVE, SEND_TOO_LONG_TO_PEER -> {
                    // One-sided, or the test JVM breaks a rule: nothing to do but watch the end.
                }
                case READ_DEREGISTERED, WRITE_DEREGISTERED -> {
                    expectCommand("DEREGISTER");
                    side.region.close();
                    say("VALID " + side.region.isValid());
                    say("DEREGISTERED");
                }
                case READ_INVALIDATED, WRITE_INVALIDATED -> {
                    report(take(verbs));
                    say("VALID " + side.region.isValid());
                    say("INVALIDATED");
                }
                case SEND_TOO_LONG_FROM_PEER -> {
                    MemoryRegion big = verbs.register(ByteBuffer.allocateDirect(5000), Set.of());
                    verbs.post(new SendRequest().tag(200).gather(big.slice(0, 5000)));
                }
                case PEER_CLOSES -> {
                    // The test's Send arrives after its RTR: once it is here, nothing of the
                    // test's is left unread, and the close is a FIN, not a reset.
                    report(take(verbs));
                    expectCommand("CLOSE");
                    socket.close();
                }
                default -> throw new AssertionError(scenario);
            }
            say("ENDED " + Proof.awaitEnded(verbs, WAIT_SECONDS, TimeUnit.SECONDS));
            drain(verbs);
            if (scenario.isWrite()) {
                say("UNTOUCHED " + untouched(side.region));
            }
        }
    }

    /** The regions and Receives of one connection, made by its setup hook. */
    private static final class Side {
        IwarpConnection verbs;
        MemoryRegion region;
        MemoryRegion inbox;

        IwarpSetup setupFor(VerbsScenario scenario) {
            return verbs -> {
                inbox = verbs.register(ByteBuffer.allocateDirect(4 * 8192), EnumSet.of(Access.LOCAL_WRITE));
                switch (scenario) {
                    case SEND_RECEIVE -> {
                        region = verbs.register(ByteBuffer.allocateDirect(REGION), REMOTE_RW);
                        for (int i = 0; i < 4; i++) {
                            verbs.post(new ReceiveRequest().tag(1 + i).scatter(inbox.slice(i * 8192L, 8192)));
                        }
                    }
                    case RDMA_WRITE -> {
                        region = verbs.register(ByteBuffer.allocateDirect(VerbsScenario.WRITE_TARGET), REMOTE_RW);
                        verbs.post(new ReceiveRequest().tag(1).scatter(inbox.slice(0, 64)));
                    }
                    case RDMA_READ -> {
                        byte[] data = Proof.random(VerbsScenario.READ_SOURCE, VerbsScenario.SEED);
                        region = verbs.register(ByteBuffer.allocateDirect(data.length).put(data),
                                EnumSet.of(Access.REMOTE_READ));
                    }
                    case SEND_NO_RECEIVE -> {
                        // deliberately no Receive
                    }
                    case SEND_TOO_LONG_TO_PEER -> {
                        verbs.post(new ReceiveRequest().tag(5).scatter(inbox.slice(0, 100)));
                        verbs.post(new ReceiveRequest().tag(6).scatter(inbox.slice(100, 100)));
                    }
                    default -> {
                        if (scenario.peerSendsDescriptor) {
                            Set<Access> rights = switch (scenario) {
                                case READ_WITHOUT_RIGHT -> EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE);
                                case WRITE_WITHOUT_RIGHT -> EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ);
                                default -> REMOTE_RW;
                            };
                            region = verbs.register(ByteBuffer.allocateDirect(REGION), rights);
                        }
                        // Receives that must be flushed when the connection ends (the first one
                        // takes the Send with Invalidate in the *_INVALIDATED scenarios, and the
                        // test's zero-length Send in PEER_CLOSES).
                        verbs.post(new ReceiveRequest().tag(80).scatter(inbox.slice(0, 64)));
                        verbs.post(new ReceiveRequest().tag(81).scatter(inbox.slice(64, 64)));
                    }
                }
            };
        }
    }

    /**
     * Sends the region's descriptor. In the WRITE_* scenarios the test's bad Write may end the
     * connection right after; the Send still completes successfully, as its bytes left before.
     */
    private void sendDescriptor(IwarpConnection verbs, MemoryRegion region) throws Exception {
        MemoryRegion descriptor = verbs.register(ByteBuffer.allocateDirect(RemoteBuffer.ENCODED_LENGTH), Set.of());
        region.remote().writeTo(descriptor.buffer());
        WorkCompletion sent = verbs.submit(new SendRequest().tag(100).gather(descriptor.slice(0, 16)))
                .get(WAIT_SECONDS, TimeUnit.SECONDS);
        if (sent.status() != CompletionStatus.SUCCESS) {
            throw new IllegalStateException("the descriptor Send failed: " + sent);
        }
        say("DESCRIPTOR " + sent.status());
    }

    /** Receives four Sends (reported), then answers with three of its own. */
    private void sendReceive(Side side) throws Exception {
        IwarpConnection verbs = side.verbs;
        int echoLength = 0;
        RemoteBuffer theirs = null;
        for (int i = 0; i < 4; i++) {
            WorkCompletion received = take(verbs);
            report(received);
            int at = (int) (received.tag() - 1) * 8192;
            say("SHA " + received.tag() + " "
                    + Proof.sha256(Proof.bytes(side.inbox.buffer(), at, (int) received.byteLength())));
            if (received.tag() == 1) {
                echoLength = (int) received.byteLength();
            } else if (received.tag() == 4 && received.byteLength() == 16) {
                theirs = RemoteBuffer.readFrom(side.inbox.buffer().duplicate().position(at));
            }
        }
        say("VALID " + side.region.isValid());
        if (theirs == null) {
            throw new IllegalStateException("no descriptor in the fourth Send");
        }
        MemoryRegion goodbye = verbs.register(ByteBuffer.allocateDirect(8)
                .put("goodbye!".getBytes(StandardCharsets.US_ASCII)), Set.of());
        verbs.post(new SendRequest().tag(101).gather(side.inbox.slice(0, echoLength)));
        verbs.post(new SendRequest().tag(102).solicited(true));
        verbs.post(new SendRequest().tag(103).gather(goodbye.slice(0, 8)).solicited(true).invalidate(theirs.stag()));
        for (int i = 0; i < 3; i++) {
            report(take(verbs));
        }
    }

    /** Waits for the Send that follows the Writes, then reports what the target region holds. */
    private void rdmaWrite(Side side) throws Exception {
        WorkCompletion done = take(side.verbs);
        report(done);
        say("SHA target " + Proof.sha256(side.region.buffer(), VerbsScenario.WRITE_TARGET));
        say("SHA expected " + HexFormat.of().formatHex(Proof.bytes(side.inbox.buffer(), 0, (int) done.byteLength())));
    }

    private static void echo(ExtendedSocket socket) throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] data = new byte[in.readInt()];
        in.readFully(data);
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        out.write(Proof.sha256().digest(data));
        out.write(data);
        out.flush();
        socket.shutdownOutput();
        int end = in.read();
        if (end != -1) {
            throw new IllegalStateException("expected the end of the stream, got " + end);
        }
    }

    private static boolean untouched(MemoryRegion region) {
        ByteBuffer memory = region.buffer();
        for (int i = 0; i < memory.capacity(); i++) {
            if (memory.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    private static WorkCompletion take(IwarpConnection verbs) throws InterruptedException {
        WorkCompletion completion = verbs.completions().take(WAIT_SECONDS, TimeUnit.SECONDS);
        if (completion == null) {
            throw new IllegalStateException("no completion within " + WAIT_SECONDS + " s\n" + Proof.threadDump());
        }
        return completion;
    }

    /** Reports every completion left, once nothing more has come for a while. */
    private void drain(IwarpConnection verbs) throws InterruptedException {
        WorkCompletion completion;
        while ((completion = verbs.completions().take(300, TimeUnit.MILLISECONDS)) != null) {
            report(completion);
        }
    }

    private void report(WorkCompletion c) {
        CompletionCause cause = c.cause();
        say(String.format("C %d %s %s %d %b %08x %s/%d/%d/%d %s", c.tag(), c.opcode(), c.status(), c.byteLength(),
                c.solicited(), c.invalidatedStag(), cause.origin(), cause.layer(), cause.errorType(), cause.errorCode(),
                c.detail() == null ? "-" : oneLine(c.detail())));
    }

    private void expectCommand(String expected) throws IOException {
        String line = control.readLine();
        if (!expected.equals(line)) {
            throw new IllegalStateException("expected the command " + expected + ", got " + line);
        }
    }

    private void say(String line) {
        System.out.println("verbs peer > " + line);
        report.println(line);
    }

    private static String oneLine(Object text) {
        return String.valueOf(text).replace('\n', ' ').replace('\r', ' ');
    }

    private static String oneLine(Throwable t) {
        return oneLine(t.toString() + (t.getCause() != null ? " caused by " + t.getCause() : ""));
    }
}
