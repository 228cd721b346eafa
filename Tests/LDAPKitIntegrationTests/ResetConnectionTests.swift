import Foundation
import LDAPKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A TCP listener on loopback that accepts connections and resets each one
/// at once (SO_LINGER 0), as a crashing or firewalled server does.
private final class ResettingListener: Sendable {
    let port: Int
    private let socketDescriptor: Int32

    init() throws {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socketDescriptor = socketDescriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socketDescriptor, pointer, length) == 0 && listen(socketDescriptor, 64) == 0
                    && getsockname(socketDescriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw LDAPError(.localError, message: "cannot listen on loopback") }
        port = Int(UInt16(bigEndian: address.sin_port))
        let descriptor = socketDescriptor
        let thread = Thread {
            while true {
                let client = accept(descriptor, nil, nil)
                if client < 0 { return }
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                Glibc.close(client)
            }
        }
        thread.start()
    }

    func close() {
        shutdown(socketDescriptor, Int32(SHUT_RDWR))
        Glibc.close(socketDescriptor)
    }
}

@Suite("A server that resets connections")
struct ResetConnectionTests {
    @Test("writes to a reset connection fail with serverDown and never raise SIGPIPE")
    func resetConnectionsFailCleanly() async throws {
        let listener = try ResettingListener()
        defer { listener.close() }
        let connection = LDAPConnection(configuration: .init(
            servers: ["ldap://127.0.0.1:\(listener.port)"],
            base: try DistinguishedName(parsing: "dc=example,dc=com"),
            networkTimeout: .seconds(2), operationTimeout: .seconds(5), systemDefaults: .ignored))
        for _ in 0..<200 {
            await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        let error = await #expect(throws: LDAPError.self) {
                            try await connection.modify(try DistinguishedName(parsing: "cn=x,dc=example,dc=com"),
                                                        [.add("description", LDAPValue(bytes: [UInt8](repeating: 65, count: 300_000)))])
                        }
                        #expect(error?.isServerDown == true)
                    }
                }
            }
        }
    }
}
