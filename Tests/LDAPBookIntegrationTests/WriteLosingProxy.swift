import Foundation
import Glibc
import LDAPBook
import LDAPKit
import SlapdKit
import Synchronization

/// A TCP proxy in front of a slapd that can lose one write the way a network does: it
/// forwards whole LDAP messages both ways and, once told to, drops the next add or modify
/// request before the server sees it, or forwards it and drops the server's reply; either
/// way it then cuts that client's connection. It can lose a transaction's commit (an End
/// Transaction request, RFC 5805) the same way. It counts the write requests it forwards,
/// so a test can tell a write sent once from one sent twice.
final class WriteLosingProxy: Sendable {
    /// Which half of a write is lost.
    enum Loss: Sendable {
        /// The request: the server never sees the write.
        case request
        /// The reply: the server makes the write, the client never hears of it.
        case reply
    }

    private struct State {
        var armed: Loss?
        var onLoss: (@Sendable () -> Void)?
        var commitArmed: Loss?
        /// The message ID of a forwarded commit whose reply is to be lost.
        var commitReplyToLose: [UInt8]?
        var commitsForwarded = 0
        var writesForwarded = 0
        var writesLost = 0
        var listening = true
        var connections: [ConnectionPair] = []
    }

    /// The port the proxy listens on, on 127.0.0.1.
    let port: UInt16
    private let listener: Int32
    private let serverPort: UInt16
    private let state = Mutex(State())

    /// The proxy's `ldap://` URI.
    var uri: String { "ldap://127.0.0.1:\(port)" }

    /// How many add and modify requests reached the server.
    var writesForwarded: Int { state.withLock { $0.writesForwarded } }

    /// How many commits (End Transaction requests) reached the server.
    var commitsForwarded: Int { state.withLock { $0.commitsForwarded } }

    /// How many writes were lost.
    var writesLost: Int { state.withLock { $0.writesLost } }

    /// Starts a proxy to the server listening on 127.0.0.1:`serverPort`.
    init(to serverPort: UInt16) throws {
        self.serverPort = serverPort
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ProxyError("socket: \(errno)") }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw ProxyError("bind/listen: \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in acceptConnections() }.start()
    }

    /// Loses the next write's `loss` half, running `onLoss` (if any) before the client's
    /// connection is cut.
    func loseNextWrite(_ loss: Loss, onLoss: (@Sendable () -> Void)? = nil) {
        state.withLock {
            $0.armed = loss
            $0.onLoss = onLoss
        }
    }

    /// Loses the next commit's `loss` half (the End Transaction request, or the server's
    /// reply to it), then cuts the client's connection.
    func loseNextCommit(_ loss: Loss) {
        state.withLock { $0.commitArmed = loss }
    }

    /// Stops accepting connections and cuts the open ones.
    func stop() {
        let open: [ConnectionPair]? = state.withLock { state in
            guard state.listening else { return nil }
            state.listening = false
            return state.connections
        }
        guard let open else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        for pair in open { pair.cut() }
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func acceptConnections() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            guard state.withLock({ $0.listening }) else {
                close(client)
                return
            }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: serverPort)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else {
                close(client)
                close(server)
                continue
            }
            let pair = ConnectionPair(client: client, server: server)
            state.withLock { $0.connections.append(pair) }
            Thread { [self] in pump(from: client, to: server, pair: pair, requests: true) }.start()
            Thread { [self] in pump(from: server, to: client, pair: pair, requests: false) }.start()
        }
    }

    /// Forwards whole messages from `source` to `destination` until either side closes.
    private func pump(from source: Int32, to destination: Int32, pair: ConnectionPair, requests: Bool) {
        defer { pair.finish() }
        while let message = Self.readMessage(source) {
            let operation = Self.protocolOperation(message)
            if losesCommit(message, operation: operation, requests: requests) {
                pair.cut()
                return
            }
            // AddRequest [APPLICATION 8] and ModifyRequest [APPLICATION 6]; their responses 9 and 7.
            let isWrite = requests ? (operation == 0x68 || operation == 0x66) : (operation == 0x69 || operation == 0x67)
            if isWrite {
                let lose = state.withLock { state -> (@Sendable () -> Void)?? in
                    guard state.armed == (requests ? .request : .reply) else {
                        if requests { state.writesForwarded += 1 }
                        return nil
                    }
                    state.armed = nil
                    state.writesLost += 1
                    defer { state.onLoss = nil }
                    return .some(state.onLoss)
                }
                if let lose {
                    lose?()
                    pair.cut()
                    return
                }
            }
            guard Self.writeAll(destination, message) else { return }
        }
    }

    /// Whether `message` is the half of a commit to lose; counts the commits forwarded.
    private func losesCommit(_ message: [UInt8], operation: UInt8?, requests: Bool) -> Bool {
        // ExtendedRequest [APPLICATION 23] naming End Transaction; replies are matched by message ID.
        let isCommit = requests && operation == 0x77 && message.count >= Self.endTransactionOID.count
            && (0...(message.count - Self.endTransactionOID.count)).contains { start in
                message[start..<start + Self.endTransactionOID.count].elementsEqual(Self.endTransactionOID)
            }
        return state.withLock { state in
            if isCommit {
                switch state.commitArmed {
                case .request?:
                    state.commitArmed = nil
                    return true
                case .reply?:
                    state.commitArmed = nil
                    state.commitReplyToLose = Self.messageID(message)
                case nil:
                    break
                }
                state.commitsForwarded += 1
                return false
            }
            if !requests, let lost = state.commitReplyToLose, Self.messageID(message) == lost {
                state.commitReplyToLose = nil
                return true
            }
            return false
        }
    }

    private static let endTransactionOID = Array("1.3.6.1.1.21.3".utf8)

    /// The message ID's content octets.
    private static func messageID(_ message: [UInt8]) -> [UInt8]? {
        var index = 1
        index += message[1] & 0x80 != 0 ? 1 + Int(message[1] & 0x7F) : 1
        guard index + 1 < message.count, message[index] == 0x02 else { return nil }
        let end = index + 2 + Int(message[index + 1])
        return end <= message.count ? Array(message[(index + 2)..<end]) : nil
    }

    /// One BER-framed LDAP message, or `nil` at the end of the stream.
    private static func readMessage(_ descriptor: Int32) -> [UInt8]? {
        guard let header = readExactly(descriptor, 2) else { return nil }
        var message = header
        var length = Int(header[1])
        if header[1] & 0x80 != 0 {
            let count = Int(header[1] & 0x7F)
            guard count <= 4, let lengthBytes = readExactly(descriptor, count) else { return nil }
            message += lengthBytes
            length = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
        }
        guard let body = readExactly(descriptor, length) else { return nil }
        return message + body
    }

    /// The protocol operation's tag: the byte after the message ID.
    private static func protocolOperation(_ message: [UInt8]) -> UInt8? {
        var index = 1
        index += message[1] & 0x80 != 0 ? 1 + Int(message[1] & 0x7F) : 1
        guard index + 1 < message.count, message[index] == 0x02 else { return nil }
        let idLength = Int(message[index + 1])
        let operation = index + 2 + idLength
        return operation < message.count ? message[operation] : nil
    }

    private static func readExactly(_ descriptor: Int32, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let result = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + done, count - done) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return nil }
            done += result
        }
        return bytes
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let result = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL)) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return false }
            done += result
        }
        return true
    }
}

/// The two sockets of one proxied connection, cut at once and closed when both pumps end.
private final class ConnectionPair: Sendable {
    let client: Int32
    let server: Int32
    /// How many pumps still run; the sockets are closed (and never cut again) at zero.
    private let pumpsRunning = Mutex(2)

    init(client: Int32, server: Int32) {
        self.client = client
        self.server = server
    }

    /// Cuts both directions, as a failed network would.
    func cut() {
        pumpsRunning.withLock { running in
            guard running > 0 else { return }
            shutdown(client, Int32(SHUT_RDWR))
            shutdown(server, Int32(SHUT_RDWR))
        }
    }

    /// Called by each pump when it ends; the second closes both sockets.
    func finish() {
        pumpsRunning.withLock { running in
            shutdown(client, Int32(SHUT_RDWR))
            shutdown(server, Int32(SHUT_RDWR))
            running -= 1
            if running == 0 {
                close(client)
                close(server)
            }
        }
    }
}

struct ProxyError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension WriteLosingProxy {
    /// An address book that talks to `server` through the proxy, with a people base of its own.
    func book(_ server: Slapd, naming: EntryNaming = .generatedUID,
              operationTimeout: Duration = .seconds(20)) async throws -> AddressBook {
        let connection = try await LDAPConnection.connect(configuration: .init(
            servers: [uri],
            base: try DistinguishedName(parsing: BookDirectory.suffix),
            authentication: .simple(dn: try DistinguishedName(parsing: server.rootDN), password: .init(server.rootPassword)),
            networkTimeout: .seconds(5), operationTimeout: operationTimeout, systemDefaults: .ignored))
        let base = try DistinguishedName(parsing: BookDirectory.suffix).child("ou", LDAPValue("people-\(UUID().uuidString.prefix(8))"))
        return AddressBook(connection: connection, configuration: .init(peopleBase: base, naming: naming))
    }
}

extension BookDirectory {
    /// Everyone under the book's people base, read directly from the server.
    static func stored(_ book: AddressBook, _ server: Slapd, attributes: [String]) async throws -> [LDAPEntry] {
        let direct = try await connection(server)
        defer { Task { await direct.close() } }
        return try await direct.search(base: try book.peopleBase(), filter: .equal("objectClass", "inetOrgPerson"),
                                       attributes: attributes).collect()
    }
}
