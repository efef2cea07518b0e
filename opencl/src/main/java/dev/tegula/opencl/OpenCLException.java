package dev.tegula.opencl;

/**
 * An OpenCL call that failed: the exception names the call, the error code's name (such as
 * {@code CL_INVALID_VALUE}) and what was asked; for a failed program build it carries the build log.
 */
public final class OpenCLException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String call;
    private final int code;

    OpenCLException(String call, int code, String asked) {
        super(call + " failed with " + ErrorCodes.name(code) + " (" + code + ") for " + asked);
        this.call = call;
        this.code = code;
    }

    OpenCLException(String call, int code, String asked, String detail) {
        super(call + " failed with " + ErrorCodes.name(code) + " (" + code + ") for " + asked + "\n" + detail);
        this.call = call;
        this.code = code;
    }

    /** {@return the OpenCL function that failed, such as {@code clCreateBuffer}} */
    public String call() {
        return call;
    }

    /** {@return the OpenCL error code (negative)} */
    public int code() {
        return code;
    }

    /** {@return the error code's name in the OpenCL headers, such as {@code CL_INVALID_VALUE}} */
    public String codeName() {
        return ErrorCodes.name(code);
    }
}
