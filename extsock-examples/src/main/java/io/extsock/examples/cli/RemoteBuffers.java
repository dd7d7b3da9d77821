package io.extsock.examples.cli;

import io.extsock.verbs.RemoteBuffer;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/** Handing a region's descriptor to the peer over the socket's stream, in its 16-byte form. */
public final class RemoteBuffers {

    private RemoteBuffers() {
    }

    public static void send(OutputStream out, RemoteBuffer buffer) throws IOException {
        ByteBuffer encoded = ByteBuffer.allocate(RemoteBuffer.ENCODED_LENGTH);
        buffer.writeTo(encoded);
        out.write(encoded.array());
        out.flush();
    }

    public static RemoteBuffer receive(InputStream in) throws IOException {
        byte[] encoded = in.readNBytes(RemoteBuffer.ENCODED_LENGTH);
        if (encoded.length < RemoteBuffer.ENCODED_LENGTH) {
            throw new EOFException();
        }
        return RemoteBuffer.readFrom(ByteBuffer.wrap(encoded));
    }
}
