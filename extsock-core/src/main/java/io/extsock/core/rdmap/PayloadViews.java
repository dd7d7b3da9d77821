package io.extsock.core.rdmap;

import java.nio.ByteBuffer;

/**
 * Makes the buffer views that carry one segment's payload into a gathering write. A view is
 * a window on an application buffer (no copy); the write moves its position, so each segment
 * needs its own. The engine supplies views from pools of its registered regions so that the
 * steady state allocates nothing; {@link #DUPLICATING} makes new ones.
 */
@FunctionalInterface
public interface PayloadViews {

    /** A view of {@code source} octets [from, to) (absolute indexes), positioned at from. */
    ByteBuffer view(ByteBuffer source, int from, int to);

    /** Views made by {@link ByteBuffer#duplicate()}: one small object per segment. */
    PayloadViews DUPLICATING = (source, from, to) -> source.duplicate().limit(to).position(from);
}
