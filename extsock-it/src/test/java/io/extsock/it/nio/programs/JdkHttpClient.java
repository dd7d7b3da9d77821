package io.extsock.it.nio.programs;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * The JDK's {@code java.net.http.HttpClient} (on NIO channels and a selector of its own) POSTing
 * bodies of several sizes to http://127.0.0.1:PORT/payload, one after another and then several at
 * once, each answer's body checked byte by byte. Prints "verified N requests BYTES bytes each
 * way", and the classes of its selector and of the channels registered with it while its
 * connections wait in its pool (read from the JDK's private fields: run with {@code --add-opens
 * java.net.http/jdk.internal.net.http=ALL-UNNAMED}). Exits 0 only when every byte was right.
 */
public final class JdkHttpClient {

    private static final int[] ONE_BY_ONE = {0, 1, 65_537, 8 << 20};
    private static final int[] AT_ONCE = {4 << 20, 3 << 20, (2 << 20) + 7, 1 << 20};

    public static void main(String[] args) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + args[0] + "/payload");
        ProviderProof.printJvmsProvider("client");
        HttpClient client = HttpClient.newHttpClient();
        long total = 0;
        long seed = 1000;
        for (int size : ONE_BY_ONE) {
            check(client.send(post(uri, seed, size), HttpResponse.BodyHandlers.ofByteArray()), seed, size);
            total += size;
            seed += 1000;
        }
        List<CompletableFuture<HttpResponse<byte[]>>> responses = new ArrayList<>();
        for (int size : AT_ONCE) {
            responses.add(client.sendAsync(post(uri, seed + 1000L * responses.size(), size),
                    HttpResponse.BodyHandlers.ofByteArray()));
        }
        for (int i = 0; i < AT_ONCE.length; i++) {
            check(responses.get(i).get(), seed + 1000L * i, AT_ONCE[i]);
            total += AT_ONCE[i];
        }
        Selector selector = (Selector) ProviderProof.field(ProviderProof.field(ProviderProof.field(client, "impl"), "selmgr"),
                "selector");
        ProviderProof.print("client", "selector", selector);
        TreeSet<String> channels = new TreeSet<>();
        for (SelectionKey key : selector.keys()) {
            channels.add(key.channel().getClass().getName());
        }
        for (String channel : channels) {
            System.out.println("client channel " + channel);
        }
        System.out.println("verified " + (ONE_BY_ONE.length + AT_ONCE.length) + " requests " + total + " bytes each way");
    }

    private static HttpRequest post(URI uri, long seed, int size) {
        return HttpRequest.newBuilder(uri).header("x-seed", Long.toString(seed))
                .POST(HttpRequest.BodyPublishers.ofByteArray(Payload.bytes(seed, 0, size))).build();
    }

    private static void check(HttpResponse<byte[]> response, long seed, int size) {
        if (response.statusCode() != 200) {
            throw new IllegalStateException("the POST of " + size + " bytes: status " + response.statusCode());
        }
        byte[] body = response.body();
        if (body.length != size) {
            throw new IllegalStateException("an answer of " + body.length + " bytes to a POST of " + size);
        }
        long difference = Payload.firstDifference(seed + 1, 0, body, 0, size);
        if (difference >= 0) {
            throw new IllegalStateException("the answer to the POST of " + size + " bytes differs at " + difference);
        }
    }
}
