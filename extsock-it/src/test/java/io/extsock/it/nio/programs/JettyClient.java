package io.extsock.it.nio.programs;

import io.extsock.IwarpOptions;
import java.io.IOException;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SelectableChannel;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.io.ClientConnector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;

/**
 * {@code JettyClient PORT [iwarp]}: Jetty 12's HTTP client (its ClientConnector: NIO channels and selectors) POSTing bodies of
 * several sizes to http://127.0.0.1:PORT/payload, one after another and then several at once,
 * each answer's body checked byte by byte. Prints "verified N requests BYTES bytes each way" and
 * the classes of the first connection's channel and selector; exits 0 only when every byte was
 * right. With {@code iwarp}, its ClientConnector sets IWARP_MODE on each channel through Jetty's
 * own extension point ({@code configure(SelectableChannel)}), and each connection prints what
 * {@link IwarpProof} proves.
 */
public final class JettyClient {

    private static final int[] ONE_BY_ONE = {0, 1, 65_537, 8 << 20};
    private static final int[] AT_ONCE = {4 << 20, 3 << 20, (2 << 20) + 7, 1 << 20};
    private static final int LARGEST = 16 << 20;

    public static void main(String[] args) throws Exception {
        String uri = "http://127.0.0.1:" + args[0] + "/payload";
        boolean iwarp = args.length > 1 && args[1].equals("iwarp");
        ProviderProof.printJvmsProvider("client");
        JettyIwarpProof iwarpProof = JettyIwarpProof.ofClient();
        HttpClient client = iwarp ? new HttpClient(new HttpClientTransportOverHTTP(new IwarpClientConnector()))
                : new HttpClient();
        if (iwarp) {
            client.addBean(iwarpProof);
        }
        client.addBean(new JettyProof("client"));
        client.start();
        long total = 0;
        long seed = 1000;
        for (int size : ONE_BY_ONE) {
            check(new CompletableResponseListener(post(client, uri, seed, size), LARGEST).send().get(60, TimeUnit.SECONDS),
                    seed, size);
            total += size;
            seed += 1000;
        }
        List<CompletableFuture<ContentResponse>> responses = new ArrayList<>();
        for (int size : AT_ONCE) {
            responses.add(new CompletableResponseListener(post(client, uri, seed + 1000L * responses.size(), size), LARGEST)
                    .send());
        }
        for (int i = 0; i < AT_ONCE.length; i++) {
            check(responses.get(i).get(60, TimeUnit.SECONDS), seed + 1000L * i, AT_ONCE[i]);
            total += AT_ONCE[i];
        }
        if (iwarp) {
            iwarpProof.printStatistics();
        }
        client.stop();
        System.out.println("verified " + (ONE_BY_ONE.length + AT_ONCE.length) + " requests " + total + " bytes each way");
    }

    private static Request post(HttpClient client, String uri, long seed, int size) {
        return client.POST(uri).headers(headers -> headers.put("x-seed", Long.toString(seed)))
                .body(new BytesRequestContent(Payload.bytes(seed, 0, size)));
    }

    private static void check(ContentResponse response, long seed, int size) {
        if (response.getStatus() != 200) {
            throw new IllegalStateException("the POST of " + size + " bytes: status " + response.getStatus());
        }
        byte[] body = response.getContent();
        if (body.length != size) {
            throw new IllegalStateException("an answer of " + body.length + " bytes to a POST of " + size);
        }
        long difference = Payload.firstDifference(seed + 1, 0, body, 0, size);
        if (difference >= 0) {
            throw new IllegalStateException("the answer to the POST of " + size + " bytes differs at " + difference);
        }
    }

    /** Jetty's own extension point for a client's channels, setting IWARP_MODE: each switches at connect. */
    private static final class IwarpClientConnector extends ClientConnector {
        @Override
        protected void configure(SelectableChannel channel) throws IOException {
            super.configure(channel);
            ((NetworkChannel) channel).setOption(IwarpOptions.IWARP_MODE, true);
        }
    }
}
