package io.extsock.it.nio.programs;

import io.extsock.ExtendedSelectorProvider;
import io.extsock.IwarpOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.util.concurrent.Executor;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.SelectorManager;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * {@code JettyServer [hook|iwarp]}: a Jetty 12 server (its ServerConnector: NIO accept channel and
 * selectors) answering each POST,
 * whose body it checks against {@link Payload} (seed in {@code x-seed}), with a body of {@link
 * Payload} at the next seed. Prints "listening PORT" and the classes of its accept channel, of
 * the first connection's channel and of its selector. With {@code hook}, in a JVM whose provider
 * is the JDK's, the connector is given extsock's through Jetty's own extension points: an accept
 * channel opened by extsock's provider ({@code ServerConnector.open(ServerSocketChannel)}) and
 * selectors from it ({@code SelectorManager.newSelector()}). With {@code iwarp}, as {@code hook} with IWARP_MODE set
 * on that accept channel, and each connection prints what {@link IwarpProof} proves.
 */
public final class JettyServer {

    public static void main(String[] args) throws Exception {
        ProviderProof.printJvmsProvider("server");
        Server server = new Server();
        boolean iwarp = args.length > 0 && args[0].equals("iwarp");
        boolean hook = iwarp || args.length > 0 && args[0].equals("hook");
        JettyIwarpProof iwarpProof = JettyIwarpProof.ofServer();
        ServerConnector connector = hook ? new ExtsockServerConnector(server) : new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        if (hook) {
            ServerSocketChannel accepting = ExtendedSelectorProvider.provider().openServerSocketChannel();
            if (iwarp) {
                // the connections it accepts switch at their first use, as MPA responders
                accepting.setOption(IwarpOptions.IWARP_MODE, true);
            }
            accepting.bind(new InetSocketAddress("127.0.0.1", 0));
            connector.open(accepting);
        }
        connector.addBean(new JettyProof("server"));
        if (iwarp) {
            connector.addBean(iwarpProof);
        }
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                long seed = Long.parseLong(request.getHeaders().get("x-seed"));
                byte[] received = Content.Source.asInputStream(request).readAllBytes();
                if (iwarp) {
                    iwarpProof.used(request.getConnectionMetaData().getConnection().getEndPoint());
                }
                long difference = Payload.firstDifference(seed, 0, received, 0, received.length);
                if (difference >= 0) {
                    System.out.println("server request body differs at " + difference);
                    Response.writeError(request, response, callback, 400);
                    return true;
                }
                System.out.println("server request body verified " + received.length);
                byte[] answer = Payload.bytes(seed + 1, 0, received.length);
                response.setStatus(200);
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, answer.length);
                response.write(true, ByteBuffer.wrap(answer), callback);
                return true;
            }
        });
        server.start();
        ProviderProof.print("server", "server-channel", connector.getTransport());
        System.out.println("listening " + connector.getLocalPort());
        server.join();
    }

    /** Jetty's own extension point for the selectors of a server connector, given extsock's. */
    private static final class ExtsockServerConnector extends ServerConnector {
        ExtsockServerConnector(Server server) {
            super(server);
        }

        @Override
        protected SelectorManager newSelectorManager(Executor executor, Scheduler scheduler, int selectors) {
            return new ServerConnectorManager(executor, scheduler, selectors) {
                @Override
                protected Selector newSelector() throws IOException {
                    return ExtendedSelectorProvider.provider().openSelector();
                }
            };
        }
    }
}
