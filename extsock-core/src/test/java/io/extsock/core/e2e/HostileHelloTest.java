package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpNegotiationException;
import io.extsock.IwarpOptions;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * End to end, what {@code ExtsockHelloFuzzTest} found: an MPA Request whose private data says
 * extsock hello but announces a 4-octet stream buffer (no room for data behind the stream
 * header) fails the responder's switch with IwarpNegotiationException (MALFORMED) and closes
 * the socket, instead of a stream whose writes send empty Sends for ever.
 */
class HostileHelloTest {

    @Test
    void aHelloWithBuffersNoStreamCanUseFailsTheSwitch() throws Exception {
        try (ExtendedServerSocket server = new ExtendedServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            server.setOption(IwarpOptions.IWARP_MODE, true);
            try (Socket peer = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                 ExtendedSocket accepted = (ExtendedSocket) server.accept()) {
                OutputStream out = peer.getOutputStream();
                ByteArrayOutputStream request = new ByteArrayOutputStream();
                request.writeBytes("MPA ID Req Frame".getBytes(StandardCharsets.US_ASCII));
                // C set, revision 1, 10 octets of private data: "XSK1", 4 buffers of 4 octets.
                request.writeBytes(HexFormat.of().parseHex("4001000a" + "58534b31" + "0004" + "00000004"));
                out.write(request.toByteArray());
                out.flush();
                IwarpNegotiationException failure = assertThrows(IwarpNegotiationException.class,
                        () -> accepted.getOutputStream().write(1));
                assertEquals(IwarpNegotiationException.Reason.MALFORMED, failure.reason());
                assertTrue(failure.getMessage().contains("4 stream receive buffers of 4 octets"), failure.getMessage());
                assertTrue(accepted.isClosed(), "the socket is closed, not half switched");
            }
        }
    }
}
