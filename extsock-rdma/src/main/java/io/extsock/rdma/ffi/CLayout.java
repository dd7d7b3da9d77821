package io.extsock.rdma.ffi;

import java.lang.foreign.MemoryLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * C's layout rules for the LP64 ABIs of Linux (x86-64, AArch64): each member at the next
 * offset that is a multiple of its alignment, a struct's size a multiple of its widest
 * member's alignment. The FFM API wants that padding spelt out; these helpers add it, so that
 * {@link RdmaStructs} lists members exactly as the headers do.
 */
final class CLayout {

    private CLayout() {
    }

    /** A whole struct: members with the padding C puts between them and after the last. */
    static MemoryLayout struct(String name, MemoryLayout... members) {
        return padded(members, true).withName(name);
    }

    /**
     * The leading members of a struct that the library allocates and we only read; what
     * follows them (pthread types, whose size differs between architectures) is left out, so
     * the layout has no meaningful size.
     */
    static MemoryLayout prefix(String name, MemoryLayout... members) {
        return padded(members, false).withName(name);
    }

    /** A union, padded to a multiple of its widest member's alignment as C pads it. */
    static MemoryLayout union(String name, MemoryLayout... members) {
        return anonymousUnion(members).withName(name);
    }

    /** A union without a name: its members are members of the enclosing struct, as in C11. */
    static MemoryLayout anonymousUnion(MemoryLayout... members) {
        long size = 0;
        long alignment = 1;
        for (MemoryLayout member : members) {
            size = Math.max(size, member.byteSize());
            alignment = Math.max(alignment, member.byteAlignment());
        }
        long padded = alignUp(size, alignment);
        if (padded == size) {
            return MemoryLayout.unionLayout(members);
        }
        List<MemoryLayout> all = new ArrayList<>(List.of(members));
        all.add(MemoryLayout.paddingLayout(padded));
        return MemoryLayout.unionLayout(all.toArray(MemoryLayout[]::new));
    }

    private static MemoryLayout padded(MemoryLayout[] members, boolean trailing) {
        List<MemoryLayout> laidOut = new ArrayList<>();
        long offset = 0;
        long alignment = 1;
        for (MemoryLayout member : members) {
            long at = alignUp(offset, member.byteAlignment());
            if (at > offset) {
                laidOut.add(MemoryLayout.paddingLayout(at - offset));
            }
            laidOut.add(member);
            offset = at + member.byteSize();
            alignment = Math.max(alignment, member.byteAlignment());
        }
        long end = alignUp(offset, alignment);
        if (trailing && end > offset) {
            laidOut.add(MemoryLayout.paddingLayout(end - offset));
        }
        return MemoryLayout.structLayout(laidOut.toArray(MemoryLayout[]::new)).withByteAlignment(alignment);
    }

    static long alignUp(long offset, long alignment) {
        return (offset + alignment - 1) / alignment * alignment;
    }
}
