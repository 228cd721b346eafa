/// Reads keys from a terminal in raw mode.
///
/// A lone Escape and the start of an escape sequence begin with the same byte; when nothing
/// follows ESC within `escapeTimeout`, it was the Escape key.
struct KeyReader {
    /// What ended a read.
    enum Event: Equatable {
        /// A key.
        case key(Key)
        /// The wake pipe was written: a signal arrived or the task was cancelled.
        case woken
        /// The input ended or the terminal hung up.
        case endOfInput
    }

    /// How long to wait for the rest of an escape sequence, in milliseconds.
    static let escapeTimeout: Int32 = 50

    private let descriptor: Int32
    private var decoder = KeyDecoder()
    private var decoded: [Key] = []

    /// A reader of the terminal open at `descriptor`.
    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Waits for the next key, or for something else that ends the wait.
    mutating func next() throws(PromptError) -> Event {
        while true {
            if !decoded.isEmpty { return .key(decoded.removeFirst()) }
            if let key = decoder.next() { return .key(key) }
            let timeout = decoder.isAwaitingMore ? Self.escapeTimeout : nil
            switch try FileDescriptorIO.waitForInput(on: descriptor, timeout: timeout) {
            case .woken:
                return .woken
            case .timedOut:
                decoded = decoder.finishPending()
            case .ready:
                let bytes = try FileDescriptorIO.readAvailable(from: descriptor)
                if bytes.isEmpty {
                    decoded = decoder.finishPending()
                    if decoded.isEmpty { return .endOfInput }
                } else {
                    decoder.feed(bytes)
                }
            }
        }
    }
}
