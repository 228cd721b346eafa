/// Why a card cannot become a new person, and the line of the property
/// that says so.
struct VCardImportFailure: Error {
    /// The line of the offending property (or of the card's `BEGIN`).
    let line: Int?
    /// The reason, naming the property and the field.
    let error: AddressBookError

    /// The failure as an address-book error whose message starts with the line.
    var addressBookError: AddressBookError {
        AddressBookError(error.code, line.map { "line \($0): " + error.message } ?? error.message)
    }

    /// The failure as a parse-level error.
    func vCardError(fallbackLine: Int) -> VCardError {
        VCardError(line: line ?? fallbackLine, message: error.message)
    }
}
