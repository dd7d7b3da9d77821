package io.extsock.core.rdmap;

import java.nio.ByteBuffer;

/**
 * The octets of one outgoing message, in pieces (a gather list), as {@link MessageWriter}
 * needs them: their lengths, and views of any part of a piece to reference from a gathering
 * write (never a copy). Who supplies the views decides what they cost: the engine lends
 * pooled views of registered regions, so that its steady state allocates nothing.
 */
public interface MessagePayload {

    /** The number of pieces. */
    int pieces();

    /** The length of a piece in octets. */
    int length(int piece);

    /**
     * A view of octets [from, to) of the piece (offsets within the piece), positioned at from.
     * It may stay referenced by a gathering write until that write is done; the writer does not
     * use it afterwards.
     */
    ByteBuffer view(int piece, int from, int to);

    /** No octets. */
    MessagePayload EMPTY = new MessagePayload() {
        @Override
        public int pieces() {
            return 0;
        }

        @Override
        public int length(int piece) {
            throw new IndexOutOfBoundsException(piece);
        }

        @Override
        public ByteBuffer view(int piece, int from, int to) {
            throw new IndexOutOfBoundsException(piece);
        }
    };

    /**
     * The remaining octets of {@code buffers[offset .. offset + count)}, each view a {@link
     * ByteBuffer#duplicate()} (one small object per segment).
     */
    static MessagePayload of(ByteBuffer[] buffers, int offset, int count) {
        return new MessagePayload() {
            @Override
            public int pieces() {
                return count;
            }

            @Override
            public int length(int piece) {
                return buffers[offset + piece].remaining();
            }

            @Override
            public ByteBuffer view(int piece, int from, int to) {
                ByteBuffer source = buffers[offset + piece];
                return source.duplicate().limit(source.position() + to).position(source.position() + from);
            }
        };
    }
}
