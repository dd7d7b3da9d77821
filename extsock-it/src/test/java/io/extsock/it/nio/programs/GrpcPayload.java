package io.extsock.it.nio.programs;

import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * The gRPC method of {@link GrpcServer} and {@link GrpcClient}, with messages as plain bytes (no
 * generated code): a request is an 8-byte seed and {@link Payload} at that seed, the answer
 * {@link Payload} at the next seed, as long.
 */
final class GrpcPayload {

    static final MethodDescriptor<byte[], byte[]> ANSWER = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName("extsock.Payload", "Answer"))
            .setRequestMarshaller(new Bytes())
            .setResponseMarshaller(new Bytes())
            .build();

    /** Larger than the largest message (gRPC's default limit is 4 MiB). */
    static final int MAX_MESSAGE = 16 << 20;

    private GrpcPayload() {
    }

    static byte[] request(long seed, int size) {
        byte[] request = new byte[Long.BYTES + size];
        ByteBuffer.wrap(request).putLong(seed);
        System.arraycopy(Payload.bytes(seed, 0, size), 0, request, Long.BYTES, size);
        return request;
    }

    static long seedOf(byte[] request) {
        return ByteBuffer.wrap(request).getLong();
    }

    private static final class Bytes implements MethodDescriptor.Marshaller<byte[]> {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
