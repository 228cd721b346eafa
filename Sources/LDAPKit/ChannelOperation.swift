/// An operation on the loop thread whose results go to a consumer through a channel, in
/// batches: a consumer waiting for them is woken once per batch rather than once per result.
/// A search's entries and a content synchronization's events go this way.
class ChannelOperation<Element: Sendable>: LoopOperation, @unchecked Sendable {
    let channel: SearchChannel<Element>
    /// Results decoded but not yet handed to the consumer.
    private var pending: [Element] = []
    /// The most results kept back before they are handed on anyway.
    private static var batchSize: Int { 256 }
    /// Fewer results than this are kept back from a consumer that is waiting for them, for at
    /// most ``holdLimit``: a server sends entries a few at a time, and waking the consumer for
    /// each few costs more than it does with them.
    private static var wakeBatch: Int { 64 }
    /// How long results may be kept back from a waiting consumer.
    private static var holdLimit: Duration { .milliseconds(5) }

    init(id: UInt64, name: String, timeout: Duration?, cancellation: CancellationFlag, channel: SearchChannel<Element>) {
        self.channel = channel
        super.init(id: id, name: name, timeout: timeout, cancellation: cancellation)
    }

    /// Keeps `element` for the consumer, handing the batch on once it is full.
    final func keep(_ element: Element) {
        pending.append(element)
        if pending.count >= Self.batchSize { flush() }
    }

    override func fail(_ error: any Error) {
        flush()
        channel.finish(throwing: error)
    }

    override func flush() {
        flushDeadline = nil
        guard !pending.isEmpty else { return }
        channel.deliver(contentsOf: pending)
        pending.removeAll(keepingCapacity: true)
    }

    /// Hands the results on unless a few are all there is and the consumer is waiting: then
    /// they wait for more, until ``holdLimit`` after the first of them was kept.
    override func flushAfterReading(now: ContinuousClock.Instant) {
        if pending.count >= Self.wakeBatch || !channel.hasWaitingConsumer || flushDeadline.map({ $0 <= now }) == true {
            flush()
        } else if !pending.isEmpty && flushDeadline == nil {
            flushDeadline = now + Self.holdLimit
        }
    }
}
