package dev.tegula.ffm;

/**
 * Keeps this package non-empty until its first real type lands: javac refuses to export an empty
 * package, and a {@code package-info.java} alone does not count. Delete this class then.
 */
final class PackageMarker {
    private PackageMarker() {
    }
}
