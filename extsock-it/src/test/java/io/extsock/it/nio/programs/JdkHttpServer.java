package io.extsock.it.nio.programs;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The JDK's own HTTP server ({@code com.sun.net.httpserver}, on NIO channels and a selector)
 * answering each POST to /payload, whose body it checks against {@link Payload} (seed in
 * {@code x-seed}), with a body of {@link Payload} at the next seed. Prints "listening PORT", the
 * classes of its listening channel, its selector and the first connection's channel (read from
 * the JDK's private fields: run with {@code --add-opens jdk.httpserver/sun.net.httpserver=ALL-UNNAMED}).
 */
public final class JdkHttpServer {

    public static void main(String[] args) throws Exception {
        ProviderProof.printJvmsProvider("server");
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        AtomicBoolean proved = new AtomicBoolean();
        server.createContext("/payload", exchange -> {
            try {
                if (proved.compareAndSet(false, true)) {
                    Object connection = ProviderProof.field(ProviderProof.field(exchange, "impl"), "connection");
                    ProviderProof.print("server", "channel", ProviderProof.field(connection, "chan"));
                }
                answer(exchange);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        });
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
        Object implementation = ProviderProof.field(server, "server");
        ProviderProof.print("server", "server-channel", ProviderProof.field(implementation, "schan"));
        ProviderProof.print("server", "selector", ProviderProof.field(implementation, "selector"));
        System.out.println("listening " + server.getAddress().getPort());
    }

    private static void answer(HttpExchange exchange) throws IOException {
        long seed = Long.parseLong(exchange.getRequestHeaders().getFirst("x-seed"));
        byte[] received;
        try (InputStream body = exchange.getRequestBody()) {
            received = body.readAllBytes();
        }
        long difference = Payload.firstDifference(seed, 0, received, 0, received.length);
        if (difference >= 0) {
            System.out.println("server request body differs at " + difference);
            exchange.sendResponseHeaders(400, -1);
            exchange.close();
            return;
        }
        System.out.println("server request body verified " + received.length);
        byte[] answer = Payload.bytes(seed + 1, 0, received.length);
        exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
        }
    }
}
