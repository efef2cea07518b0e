package dev.tegula.opencl;

/**
 * What an OpenCL device says about itself ({@code clGetDeviceInfo}), with the platform it belongs to.
 *
 * @param platformIndex     the platform's place in {@code clGetPlatformIDs}' list
 * @param platformName      {@code CL_PLATFORM_NAME}
 * @param platformVersion   {@code CL_PLATFORM_VERSION}
 * @param deviceIndex       the device's place in its platform's {@code clGetDeviceIDs} list (all types)
 * @param name              {@code CL_DEVICE_NAME}
 * @param vendor            {@code CL_DEVICE_VENDOR}
 * @param type              "GPU", "CPU", "accelerator" or "other" ({@code CL_DEVICE_TYPE})
 * @param version           {@code CL_DEVICE_VERSION}
 * @param computeUnits      {@code CL_DEVICE_MAX_COMPUTE_UNITS}
 * @param globalMemorySize  {@code CL_DEVICE_GLOBAL_MEM_SIZE}, bytes
 * @param maxBufferSize     {@code CL_DEVICE_MAX_MEM_ALLOC_SIZE}, bytes: the largest buffer
 * @param hostUnifiedMemory {@code CL_DEVICE_HOST_UNIFIED_MEMORY}: the device shares memory with the host
 */
public record DeviceInfo(int platformIndex, String platformName, String platformVersion, int deviceIndex, String name,
                         String vendor, String type, String version, long computeUnits, long globalMemorySize,
                         long maxBufferSize, boolean hostUnifiedMemory) {

    static DeviceInfo of(int platformIndex, long platform, int deviceIndex, long device) {
        long t = CL.deviceLong(device, CL.CL_DEVICE_TYPE);
        String type = (t & CL.CL_DEVICE_TYPE_GPU) != 0 ? "GPU" : (t & CL.CL_DEVICE_TYPE_CPU) != 0 ? "CPU"
                : (t & CL.CL_DEVICE_TYPE_ACCELERATOR) != 0 ? "accelerator" : "other";
        return new DeviceInfo(platformIndex, CL.platformInfo(platform, CL.CL_PLATFORM_NAME).strip(),
                CL.platformInfo(platform, CL.CL_PLATFORM_VERSION).strip(), deviceIndex,
                CL.deviceString(device, CL.CL_DEVICE_NAME).strip(), CL.deviceString(device, CL.CL_DEVICE_VENDOR).strip(),
                type, CL.deviceString(device, CL.CL_DEVICE_VERSION).strip(),
                CL.deviceLong(device, CL.CL_DEVICE_MAX_COMPUTE_UNITS),
                CL.deviceLong(device, CL.CL_DEVICE_GLOBAL_MEM_SIZE), CL.deviceLong(device, CL.CL_DEVICE_MAX_MEM_ALLOC_SIZE),
                (CL.deviceLong(device, CL.CL_DEVICE_HOST_UNIFIED_MEMORY) & 0xFFFFFFFFL) != 0);
    }

    /** {@return "platform P device D: name (type)"} */
    public String label() {
        return "platform " + platformIndex + " device " + deviceIndex + ": " + name + " (" + type + ", " + platformName + ")";
    }
}
