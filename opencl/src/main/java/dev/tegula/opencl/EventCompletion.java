package dev.tegula.opencl;

import dev.tegula.ffm.Completion;
import java.util.concurrent.atomic.AtomicLong;

/** The completion of an enqueued OpenCL command: waits on its event, then releases it, once. */
final class EventCompletion implements Completion {
    private final AtomicLong event;
    private final String what;
    private final Runnable after;

    EventCompletion(long event, String what, Runnable after) {
        this.event = new AtomicLong(event);
        this.what = what;
        this.after = after;
    }

    @Override
    public void await() {
        long e = event.get();
        if (e == 0) {
            return;
        }
        synchronized (this) {
            e = event.get();
            if (e == 0) {
                return;
            }
            try {
                CL.waitFor(e, what);
            } catch (OpenCLException ex) {
                throw new IllegalStateException(what + " did not complete: " + ex.getMessage(), ex);
            } finally {
                event.set(0);
                CL.releaseEvent(e);
                if (after != null) {
                    after.run();
                }
            }
        }
    }
}
