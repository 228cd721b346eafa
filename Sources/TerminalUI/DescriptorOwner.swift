#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Closes a file descriptor this library opened when the last prompter using it goes away.
final class DescriptorOwner: Sendable {
    /// The descriptor, open until this object is released.
    let descriptor: Int32

    /// Takes ownership of `descriptor`.
    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
