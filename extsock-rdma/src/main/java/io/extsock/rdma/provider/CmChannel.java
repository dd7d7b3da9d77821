package io.extsock.rdma.provider;

import io.extsock.rdma.events.CmEvent;
import io.extsock.rdma.events.CmEventSource;
import io.extsock.rdma.events.DeviceEventThread;
import io.extsock.rdma.events.EventHandler;
import io.extsock.rdma.ffi.RdmaCm;
import io.extsock.rdma.ffi.RdmaConstants;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * An rdma_cm event channel, watched on a device's event thread, whose events go to the inbox of
 * the identifier they are about (a connect request to its listener's). A connecting identifier
 * has a channel of its own; a listener shares its channel with the connections it accepts. The
 * channel is destroyed when its last identifier is: {@code rdma_destroy_event_channel} must come
 * after every identifier on it is gone.
 */
final class CmChannel implements EventHandler<CmEvent> {

    private static final System.Logger LOG = System.getLogger(CmChannel.class.getName());

    private final RdmaCm cm;
    private final DeviceEventThread events;
    private final MemorySegment channel;
    private final Object watch;
    private final ConcurrentMap<Long, CmInbox> inboxes = new ConcurrentHashMap<>();
    /** Identifiers on the channel; guarded by this. */
    private int ids;
    private boolean destroyed;

    private CmChannel(RdmaCm cm, DeviceEventThread events, MemorySegment channel) throws IOException {
        this.cm = cm;
        this.events = events;
        this.channel = channel;
        this.watch = events.watch(new CmEventSource(cm, channel), this);
    }

    /** Opens a channel and starts watching it on {@code events}. */
    static CmChannel open(RdmaCm cm, DeviceEventThread events) throws IOException {
        MemorySegment channel = cm.createEventChannel();
        try {
            return new CmChannel(cm, events, channel);
        } catch (IOException | RuntimeException e) {
            cm.destroyEventChannel(channel);
            throw e;
        }
    }

    /**
     * Creates an identifier on this channel.
     *
     * @return the identifier and its inbox
     */
    synchronized Identifier createId() throws IOException {
        MemorySegment id;
        try {
            id = cm.createId(channel, MemorySegment.NULL);
        } catch (IOException | RuntimeException e) {
            if (ids == 0 && !destroyed) {
                destroyed = true;  // a channel no identifier ever used
                events.unwatch(watch);
                cm.destroyEventChannel(channel);
            }
            throw e;
        }
        return adopt(id);
    }

    /** Takes in an identifier that librdmacm created on this channel (a connect request's). */
    synchronized Identifier adopt(MemorySegment id) {
        CmInbox inbox = new CmInbox();
        inboxes.put(id.address(), inbox);
        ids++;
        return new Identifier(this, id, inbox);
    }

    /** Destroys an identifier, and the channel with its last one. */
    void destroy(Identifier identifier) {
        inboxes.remove(identifier.id().address());
        try {
            cm.destroyId(identifier.id());
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "rdma_destroy_id failed", e);
        }
        boolean last;
        synchronized (this) {
            last = --ids == 0 && !destroyed;
            destroyed |= last;
        }
        if (last) {
            events.unwatch(watch);
            cm.destroyEventChannel(channel);
        }
    }

    @Override
    public void onEvent(CmEvent event) {
        MemorySegment about = event.type() == RdmaConstants.RDMA_CM_EVENT_CONNECT_REQUEST ? event.listenId() : event.id();
        CmInbox inbox = inboxes.get(about.address());
        if (inbox != null) {
            inbox.deliver(event);
        } else if (event.type() == RdmaConstants.RDMA_CM_EVENT_CONNECT_REQUEST) {
            // its listener is closing: the new identifier is librdmacm's to free once rejected
            try {
                cm.reject(event.id(), MemorySegment.NULL);
                cm.destroyId(event.id());
            } catch (IOException e) {
                LOG.log(System.Logger.Level.DEBUG, "a connect request to a closed listener", e);
            }
        }
    }

    @Override
    public void onFailure(IOException failure) {
        LOG.log(System.Logger.Level.ERROR, "the rdma_cm event channel failed; its connections hear no more events",
                failure);
    }

    /** An identifier on a channel, with the inbox of its events. */
    record Identifier(CmChannel channel, MemorySegment id, CmInbox inbox) {
        /** Destroys the identifier (after its queue pair). */
        void destroy() {
            channel.destroy(this);
        }
    }
}
