package io.extsock.it.nio.programs;

import io.extsock.IwarpOptions;
import io.netty.channel.socket.nio.NioChannelOption;
import com.google.common.util.concurrent.ListenableFuture;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code GrpcClient PORT [iwarp]}: a grpc-java client (grpc-netty) on Netty's NIO transport, as its documentation configures it
 * (an NIO event loop group and {@code NioSocketChannel}), calling {@link GrpcPayload#ANSWER} at
 * 127.0.0.1:PORT with messages of several sizes, one after another and then several at once on
 * the one HTTP/2 connection, each answer checked byte by byte. Prints "verified N calls BYTES
 * bytes each way" and the classes of its channel and selector; exits 0 only when every byte was
 * right. With {@code iwarp}, IWARP_MODE is set through grpc's {@code withOption} (the connection
 * switches at connect), and it prints what {@link IwarpProof} proves.
 */
public final class GrpcClient {

    private static final int[] ONE_BY_ONE = {0, 1, 65_537, 8 << 20};
    private static final int[] AT_ONCE = {4 << 20, 3 << 20, (2 << 20) + 7, 1 << 20};

    public static void main(String[] args) throws Exception {
        boolean iwarp = args.length > 1 && args[1].equals("iwarp");
        ProviderProof.printJvmsProvider("client");
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        AtomicReference<NioSocketChannel> connection = new AtomicReference<>();
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress("127.0.0.1", Integer.parseInt(args[0]))
                .eventLoopGroup(group)
                .channelFactory(() -> {
                    NioSocketChannel created = new NioSocketChannel();
                    connection.compareAndSet(null, created);
                    return created;
                })
                .usePlaintext()
                .maxInboundMessageSize(GrpcPayload.MAX_MESSAGE);
        if (iwarp) {
            builder.withOption(NioChannelOption.of(IwarpOptions.IWARP_MODE), true);  // switches at connect
        }
        ManagedChannel channel = builder.build();
        long total = 0;
        long seed = 1000;
        for (int size : ONE_BY_ONE) {
            check(ClientCalls.blockingUnaryCall(channel, GrpcPayload.ANSWER, CallOptions.DEFAULT,
                    GrpcPayload.request(seed, size)), seed, size);
            total += size;
            seed += 1000;
        }
        List<ListenableFuture<byte[]>> answers = new ArrayList<>();
        for (int size : AT_ONCE) {
            answers.add(ClientCalls.futureUnaryCall(channel.newCall(GrpcPayload.ANSWER, CallOptions.DEFAULT),
                    GrpcPayload.request(seed + 1000L * answers.size(), size)));
        }
        for (int i = 0; i < AT_ONCE.length; i++) {
            check(answers.get(i).get(60, TimeUnit.SECONDS), seed + 1000L * i, AT_ONCE[i]);
            total += AT_ONCE[i];
        }
        NettyServer.printChannelAndSelector("client", connection.get());
        if (iwarp) {
            IwarpProof.printNow("client", IwarpProof.javaChannel(connection.get()));
        }
        channel.shutdown().awaitTermination(10, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        System.out.println("verified " + (ONE_BY_ONE.length + AT_ONCE.length) + " calls " + total + " bytes each way");
    }

    private static void check(byte[] answer, long seed, int size) {
        if (answer.length != size) {
            throw new IllegalStateException("an answer of " + answer.length + " bytes to a request of " + size);
        }
        long difference = Payload.firstDifference(seed + 1, 0, answer, 0, size);
        if (difference >= 0) {
            throw new IllegalStateException("the answer to the request of " + size + " bytes differs at " + difference);
        }
    }
}
