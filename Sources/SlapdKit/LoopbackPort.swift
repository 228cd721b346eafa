import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds TCP ports on 127.0.0.1 that nothing listens on.
enum LoopbackPort {
    /// Ports already handed out by this process, so that instances created back to back
    /// never share one even if the kernel offers it twice.
    private static let handedOut = Mutex<Set<Int>>([])

    /// Returns a port that was free a moment ago, found by binding 127.0.0.1:0.
    static func free() throws(SlapdError) -> Int {
        for _ in 0..<64 {
            let port = try bindEphemeralPort()
            let isNew = handedOut.withLock { $0.insert(port).inserted }
            if isNew {
                return port
            }
        }
        throw SlapdError(.invalidConfiguration, "Cannot find a free TCP port on 127.0.0.1.")
    }

    /// Asks the kernel for an ephemeral port on the loopback interface.
    private static func bindEphemeralPort() throws(SlapdError) -> Int {
        #if canImport(Glibc) || canImport(Musl)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else {
            throw SlapdError(.invalidConfiguration, "Cannot create a socket to find a free port: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0
                    && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else {
            throw SlapdError(.invalidConfiguration, "Cannot bind 127.0.0.1:0 to find a free port: \(String(cString: strerror(errno)))")
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

extension Slapd {
    /// A TCP port on 127.0.0.1 that nothing listened on a moment ago and that
    /// no `Slapd` of this process will be given: for tests that need a port
    /// where no server answers.
    public static func freeLoopbackPort() throws -> Int {
        try LoopbackPort.free()
    }
}
