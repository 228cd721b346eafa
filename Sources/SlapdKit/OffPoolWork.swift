import Dispatch

/// Runs blocking `body` on a Dispatch thread and suspends until it is done, so that
/// waiting for a program such as slapadd never occupies Swift's cooperative thread pool.
func runOffCooperativePool<Value: Sendable>(
    _ body: @escaping @Sendable () throws(SlapdError) -> Value
) async throws(SlapdError) -> Value {
    let result: Result<Value, SlapdError> = await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(returning: Result { () throws(SlapdError) in try body() })
        }
    }
    return try result.get()
}
