package io.extsock.it.nio.programs;

import io.extsock.ExtendedSocketChannel;
import io.extsock.IwarpOptions;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.IwarpStatistics;
import io.extsock.verbs.MessageType;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.nio.AbstractNioChannel;
import java.io.IOException;

/**
 * What a program prints to show that a connection it used ran in IWARP_MODE: the channel's own
 * answer to {@code getOption(IwarpOptions.IWARP_MODE)} once traffic went through it ("WHO
 * iwarp-mode true"), and the iWARP connection's statistics: the RDMAP Sends that carried the
 * stream each way ("WHO iwarp sent N sends B bytes", "WHO iwarp received N sends B bytes").
 */
public final class IwarpProof {

    private IwarpProof() {
    }

    /** For a channel still open after its traffic: its mode, and its statistics now. */
    public static void printNow(String who, Object jdkChannel) throws IOException {
        IwarpConnection connection = used(who, jdkChannel);
        if (connection != null) {
            printStatistics(who, connection);
        }
    }

    /** Prints the mode of a channel that carried traffic; gives its iWARP connection, or null in passthrough. */
    public static IwarpConnection used(String who, Object jdkChannel) throws IOException {
        ExtendedSocketChannel channel = (ExtendedSocketChannel) jdkChannel;
        boolean iwarpMode = channel.getOption(IwarpOptions.IWARP_MODE);
        System.out.println(who + " iwarp-mode " + iwarpMode);
        return iwarpMode ? channel.iwarp() : null;
    }

    public static void printStatistics(String who, IwarpConnection connection) {
        IwarpStatistics statistics = connection.statistics();
        System.out.println(who + " iwarp sent " + statistics.messagesSent(MessageType.SEND) + " sends "
                + statistics.payloadSent().get(MessageType.SEND) + " bytes");
        System.out.println(who + " iwarp received " + statistics.messagesReceived(MessageType.SEND) + " sends "
                + statistics.payloadReceived().get(MessageType.SEND) + " bytes");
    }

    /** The JDK-level channel under a Netty NIO channel. */
    public static Object javaChannel(io.netty.channel.Channel channel) throws ReflectiveOperationException {
        return ProviderProof.call(channel, AbstractNioChannel.class, "javaChannel");
    }

    /**
     * A Netty handler, first in an accepted connection's pipeline, that watches without changing
     * anything: at the connection's first read it prints the mode, at its end the statistics.
     */
    public static ChannelHandler nettyWatch(String who) {
        return new ChannelInboundHandlerAdapter() {
            private IwarpConnection connection;
            private boolean read;

            @Override
            public void channelRead(ChannelHandlerContext context, Object message) throws Exception {
                if (!read) {
                    read = true;
                    connection = used(who, javaChannel(context.channel()));
                }
                context.fireChannelRead(message);
            }

            @Override
            public void channelInactive(ChannelHandlerContext context) {
                if (connection != null) {
                    printStatistics(who, connection);
                }
                context.fireChannelInactive();
            }
        };
    }
}
