package dev.tegula.opencl;

import java.util.concurrent.atomic.AtomicBoolean;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The one place that decides whether the device tests run: only where the OpenCL library loads and
 * a device opens (the provider of {@code S(1)}). Elsewhere every device test is skipped, and one line
 * saying why is printed once per test run. A JUnit condition ({@code @ExtendWith}) and a jqwik hook
 * ({@code @AddLifecycleHook}).
 */
public final class RequiresOpenCL implements ExecutionCondition, SkipExecutionHook {
    private static final AtomicBoolean SAID = new AtomicBoolean();

    /** {@return null if the device tests can run, else why not} */
    static String reason() {
        String r = OpenCLDevice.unavailableReason();
        if (r != null) {
            return r;
        }
        OpenCLMemory m = OpenCLMemory.forMemorySpace(1);
        if (m == null) {
            return new OpenCLMemory(1, null).unavailableReason();
        }
        return null;
    }

    private static String check() {
        String r = reason();
        if (r != null && SAID.compareAndSet(false, true)) {
            System.out.println("[tegula-opencl] the OpenCL device tests did not run: " + r.lines().findFirst().orElse(r));
        }
        return r;
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        String r = check();
        return r == null ? ConditionEvaluationResult.enabled("an OpenCL device is present")
                : ConditionEvaluationResult.disabled("no OpenCL device: " + r);
    }

    @Override
    public SkipResult shouldBeSkipped(LifecycleContext context) {
        String r = check();
        return r == null ? SkipResult.doNotSkip() : SkipResult.skip("no OpenCL device: " + r);
    }

    /** {@return the provider of S(1), for tests that run} */
    static OpenCLMemory provider() {
        return OpenCLMemory.forMemorySpace(1);
    }
}
