package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.core.AllThreadsAllocations;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What an IWARP_MODE connection costs the heap to set up: both ends' switch (MPA negotiation,
 * queue pair, completion ring, stream), counted over every thread that takes part (the
 * connecting thread, the accepting thread, the engine's). Thousands of connections coming and
 * going, or held open at once, pay this per connection: a completion ring's failure notes, a
 * gathering write's hundreds of arena views, a hundred stream headers and fully grown entry
 * pools had made it 200 KiB a pair, most of it for Sends that never were in flight.
 */
@Timeout(120)
class ConnectionFootprintTest {

    private static final int WARM_UP_PAIRS = 20;
    private static final int MEASURED_PAIRS = 40;
    /** Heap octets a connected pair may allocate, both ends; measured 56 KiB. */
    private static final long MOST_PER_PAIR = 80 * 1024;

    @Test
    void aConnectedPairAllocatesLittleHeap() throws Exception {
        AllThreadsAllocations allocations = AllThreadsAllocations.counter();
        try (ExtendedServerSocket server = new ExtendedServerSocket()) {
            server.setOption(IwarpOptions.IWARP_MODE, true);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
            Acceptor acceptor = new Acceptor(server, WARM_UP_PAIRS + MEASURED_PAIRS);
            acceptor.start();
            List<Socket> clients = new ArrayList<>();
            try {
                connect(server, WARM_UP_PAIRS, clients, acceptor);
                long[] threads = allocations.liveThreads();  // the engine's threads run by now
                long before = allocations.of(threads);
                connect(server, MEASURED_PAIRS, clients, acceptor);
                long perPair = (allocations.of(threads) - before) / MEASURED_PAIRS;
                assertTrue(perPair <= MOST_PER_PAIR, "a connected IWARP_MODE pair allocated " + perPair
                        + " heap octets, more than " + MOST_PER_PAIR);
            } finally {
                acceptor.finish();
                for (Socket client : clients) {
                    client.close();
                }
            }
            assertEquals(null, acceptor.failure, "the accepting end failed");
        }
    }

    /** Connects and switches pairs one at a time: the client here, the accepted end on the acceptor. */
    private static void connect(ExtendedServerSocket server, int pairs, List<Socket> clients, Acceptor acceptor)
            throws IOException, InterruptedException {
        for (int i = 0; i < pairs; i++) {
            ExtendedSocket client = new ExtendedSocket();
            clients.add(client);
            client.setOption(IwarpOptions.IWARP_MODE, true);
            client.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()), 10_000);
            client.getOutputStream().write(i);
            Integer echoed = acceptor.received.poll(30, TimeUnit.SECONDS);
            assertEquals(i & 0xFF, echoed, "the accepted end's first octet");
        }
    }

    /**
     * Accepts each connection and reads its first octet (the use that switches the accepted
     * end), on one thread that outlives the measurement: a thread that ended counts nothing.
     */
    private static final class Acceptor extends Thread {
        final BlockingQueue<Integer> received = new LinkedBlockingQueue<>();
        private final ExtendedServerSocket server;
        private final int connections;
        private final List<Socket> accepted = new ArrayList<>();
        private final CountDownLatch done = new CountDownLatch(1);
        volatile Throwable failure;

        Acceptor(ExtendedServerSocket server, int connections) {
            super("footprint-acceptor");
            this.server = server;
            this.connections = connections;
            setDaemon(true);
        }

        @Override
        public void run() {
            try {
                for (int i = 0; i < connections; i++) {
                    Socket socket = server.accept();
                    accepted.add(socket);
                    received.add(socket.getInputStream().read());
                }
                done.await();
            } catch (Throwable e) {
                failure = e;
            } finally {
                for (Socket socket : accepted) {
                    try {
                        socket.close();
                    } catch (IOException e) {
                        // closing after the test: nothing to learn
                    }
                }
            }
        }

        void finish() throws InterruptedException {
            done.countDown();
            join(TimeUnit.SECONDS.toMillis(30));
        }
    }
}
