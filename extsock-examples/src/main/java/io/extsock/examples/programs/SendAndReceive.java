package io.extsock.examples.programs;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

/**
 * Two-sided messages: with the streams off, each side posts Receives into its registered
 * memory and Sends from it. The server posts its Receive in {@link IwarpOptions#SETUP}, before
 * the client can send (a Send that finds no Receive posted ends the connection); the client
 * posts its Receive before its Send, so the reply finds it.
 */
public final class SendAndReceive {

    private static final int MESSAGE = 64;

    public static void main(String[] args) throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ExtendedServerSocket server = new ExtendedServerSocket(0, 1, loopback)) {
            MemoryRegion[] serverMemory = new MemoryRegion[1];
            server.setOption(IwarpOptions.STREAMS, false);
            server.setOption(IwarpOptions.SETUP, connection -> {
                serverMemory[0] = connection.register(ByteBuffer.allocateDirect(MESSAGE), EnumSet.of(Access.LOCAL_WRITE));
                connection.post(new ReceiveRequest().tag(1).scatter(serverMemory[0].slice(0, MESSAGE)));
            });
            server.setOption(IwarpOptions.IWARP_MODE, true);
            FutureTask<Void> serverEnd = new FutureTask<>(() -> {
                try (ExtendedSocket accepted = server.accept()) {
                    IwarpConnection verbs = accepted.iwarp();     // the first use switches, running SETUP
                    WorkCompletion received = take(verbs);
                    String question = text(serverMemory[0], received);
                    System.out.println("server received: " + question);
                    int length = put(serverMemory[0], "you said: " + question);
                    verbs.post(new SendRequest().tag(2).gather(serverMemory[0].slice(0, length)));
                    take(verbs);                                  // the reply has gone out
                    return null;
                }
            });
            new Thread(serverEnd, "server").start();

            try (ExtendedSocket socket = new ExtendedSocket()) {
                socket.setOption(IwarpOptions.STREAMS, false);
                socket.connect(new InetSocketAddress(loopback, server.getLocalPort()));
                socket.setOption(IwarpOptions.IWARP_MODE, true);
                IwarpConnection verbs = socket.iwarp();
                MemoryRegion replies = verbs.register(ByteBuffer.allocateDirect(MESSAGE), EnumSet.of(Access.LOCAL_WRITE));
                MemoryRegion questions = verbs.register(ByteBuffer.allocateDirect(MESSAGE), EnumSet.noneOf(Access.class));
                verbs.post(new ReceiveRequest().tag(10).scatter(replies.slice(0, MESSAGE)));
                int length = put(questions, "hello");
                verbs.post(new SendRequest().tag(11).gather(questions.slice(0, length)));
                WorkCompletion sent = take(verbs);
                System.out.println("client's Send: " + sent.status());
                WorkCompletion reply = take(verbs);
                System.out.println("client received: " + text(replies, reply));
                serverEnd.get(5, TimeUnit.SECONDS);
            }
        }
    }

    /** The next completion; {@code take} returns null when none comes in time. */
    private static WorkCompletion take(IwarpConnection verbs) throws IOException, InterruptedException {
        WorkCompletion done = verbs.completions().take(5, TimeUnit.SECONDS);
        if (done == null) {
            throw new IOException("no completion within 5 s");
        }
        if (!done.isSuccess()) {
            throw new IOException("request " + done.tag() + " failed: " + done);
        }
        return done;
    }

    private static int put(MemoryRegion memory, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        memory.buffer().put(0, bytes);
        return bytes.length;
    }

    /** The message a Receive completed with: its completion says how long it is. */
    private static String text(MemoryRegion memory, WorkCompletion received) {
        byte[] bytes = new byte[(int) received.byteLength()];
        memory.buffer().get(0, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
