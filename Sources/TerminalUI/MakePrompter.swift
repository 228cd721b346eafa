import Foundation

/// The prompter for this process: a `TTYPrompter` on the controlling terminal (`/dev/tty`) when
/// it can be opened and moves the cursor; a `LinePrompter` on it when `TERM` is `dumb`; otherwise
/// a `LinePrompter` reading standard input and writing standard error.
///
/// Questions never go to standard output, which carries the result, as in
/// `mutt "$(ldapbook reach email ada)"`.
public func makePrompter(environment: [String: String] = ProcessInfo.processInfo.environment) -> any Prompter {
    let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard descriptor >= 0 else { return LinePrompter() }
    let owner = DescriptorOwner(descriptor)
    let capabilities = TerminalCapabilities.detect(fileDescriptor: descriptor, environment: environment)
    guard capabilities.isTTY else { return LinePrompter() }
    guard capabilities.supportsCursorControl else { return LinePrompter(terminal: owner) }
    return TTYPrompter(terminal: owner, usesColor: capabilities.usesColor)
}
