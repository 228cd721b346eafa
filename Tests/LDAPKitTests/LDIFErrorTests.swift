import LDAPKit
import Testing

/// Malformed LDIF and the error it gives: the line and the message.
struct LDIFErrorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var ldif: String
    var line: Int
    var message: String

    var testDescription: String { name }
}

@Suite("LDIF: errors name the offending line")
struct LDIFErrorTests {
    static let cases: [LDIFErrorCase] = [
        LDIFErrorCase(
            name: "invalid base64",
            ldif: "dn: cn=a,dc=example\ncn: a\njpegPhoto:: /9j/4AAQ!!!\n",
            line: 3, message: "invalid base64 value for jpegPhoto"
        ),
        LDIFErrorCase(
            name: "base64 of the wrong length",
            ldif: "dn: cn=a,dc=example\ncn:: YWJj\ndescription:: YWJjZA\n",
            line: 3, message: "invalid base64 value for description"
        ),
        LDIFErrorCase(
            name: "invalid base64 in a folded line: the first physical line",
            ldif: "dn: cn=a,dc=example\njpegPhoto:: AAAA\n AA!A\n",
            line: 2, message: "invalid base64 value for jpegPhoto"
        ),
        LDIFErrorCase(
            name: "a record without a dn line",
            ldif: "version: 1\n\nobjectClass: top\ncn: a\n",
            line: 3, message: "expected a 'dn:' line to begin the record, found 'objectClass'"
        ),
        LDIFErrorCase(
            name: "an attribute before the dn line",
            ldif: "# people\ncn: a\ndn: cn=a,dc=example\n",
            line: 2, message: "expected a 'dn:' line to begin the record, found 'cn'"
        ),
        LDIFErrorCase(
            name: "a second dn line: records run together",
            ldif: "dn: cn=a,dc=example\ncn: a\ndn: cn=b,dc=example\ncn: b\n",
            line: 3, message: "a second 'dn:' line in one record; separate records with an empty line"
        ),
        LDIFErrorCase(
            name: "an invalid DN",
            ldif: "dn: cn=a,dc=example\ncn: a\n\ndn: cn\ncn: b\n",
            line: 4, message: "invalid DN: missing '=' after the attribute type at offset 2"
        ),
        LDIFErrorCase(
            name: "an unknown changetype",
            ldif: "version: 1\ndn: cn=a,dc=example\nchangetype: rename\nnewrdn: cn=b\n",
            line: 3, message: "unknown changetype 'rename'; expected add, delete, modify, modrdn or moddn"
        ),
        LDIFErrorCase(
            name: "a modification at the end of the record without '-'",
            ldif: "dn: cn=a,dc=example\nchangetype: modify\nreplace: mail\nmail: a@example.com\n\n",
            line: 3, message: "the 'replace: mail' modification is not ended by a '-' line"
        ),
        LDIFErrorCase(
            name: "a modification followed by another without '-'",
            ldif: "dn: cn=a,dc=example\nchangetype: modify\nreplace: mail\nmail: a@example.com\nadd: cn\ncn: b\n-\n",
            line: 5, message: "'add' is not part of the 'replace: mail' modification; end it with a '-' line"
        ),
        LDIFErrorCase(
            name: "an unknown modify operation",
            ldif: "dn: cn=a,dc=example\nchangetype: modify\nremove: mail\n-\n",
            line: 3, message: "expected 'add:', 'delete:', 'replace:' or 'increment:' to begin a modification, found 'remove'"
        ),
        LDIFErrorCase(
            name: "a folded comment takes the dn line with it",
            ldif: "# a comment folded\n onto a second line\n dn: cn=a,dc=example\ncn: a\n",
            line: 4, message: "expected a 'dn:' line to begin the record, found 'cn'"
        ),
        LDIFErrorCase(
            name: "a continuation line at the start of the input",
            ldif: " dn: cn=a,dc=example\ncn: a\n",
            line: 1, message: "a line starting with a space continues nothing (it follows an empty line or begins the input)"
        ),
        LDIFErrorCase(
            name: "a continuation line after an empty line",
            ldif: "dn: cn=a,dc=example\ncn: a\n\n description: more\n",
            line: 4, message: "a line starting with a space continues nothing (it follows an empty line or begins the input)"
        ),
        LDIFErrorCase(
            name: "a line without a colon",
            ldif: "dn: cn=a,dc=example\ncn a\n",
            line: 2, message: "expected 'name: value', found 'cn a'"
        ),
        LDIFErrorCase(
            name: "an invalid attribute description",
            ldif: "dn: cn=a,dc=example\ncommon_name: a\n",
            line: 2, message: "invalid attribute description 'common_name'"
        ),
        LDIFErrorCase(
            name: "a delete record with more lines",
            ldif: "dn: cn=a,dc=example\nchangetype: delete\ncn: a\n",
            line: 3, message: "unexpected 'cn' after 'changetype: delete'"
        ),
        LDIFErrorCase(
            name: "a rename without newrdn",
            ldif: "dn: cn=a,dc=example\nchangetype: modrdn\n",
            line: 2, message: "the record ends without the 'newrdn:' line that a rename needs"
        ),
        LDIFErrorCase(
            name: "a rename with deleteoldrdn that is not 0 or 1",
            ldif: "dn: cn=a,dc=example\nchangetype: moddn\nnewrdn: cn=b\ndeleteoldrdn: yes\n",
            line: 4, message: "deleteoldrdn must be 0 or 1, found 'yes'"
        ),
        LDIFErrorCase(
            name: "a rename with lines in the wrong order",
            ldif: "dn: cn=a,dc=example\nchangetype: modrdn\ndeleteoldrdn: 1\nnewrdn: cn=b\n",
            line: 3, message: "expected 'newrdn:', found 'deleteoldrdn'"
        ),
        LDIFErrorCase(
            name: "an invalid new RDN",
            ldif: "dn: cn=a,dc=example\nchangetype: modrdn\nnewrdn: cn=b,dc=example\ndeleteoldrdn: 1\n",
            line: 3, message: "newrdn: invalid DN: ',' ends the RDN before the end of the text at offset 4"
        ),
        LDIFErrorCase(
            name: "a control without a numeric OID",
            ldif: "dn: cn=a,dc=example\ncontrol: treeDelete true\nchangetype: delete\n",
            line: 2, message: "expected a numeric OID after 'control:', found 'treeDelete true'"
        ),
        LDIFErrorCase(
            name: "a control with a bad criticality",
            ldif: "dn: cn=a,dc=example\ncontrol: 1.2.3 yes\nchangetype: delete\n",
            line: 2, message: "unexpected 'yes' in the control; expected 'true', 'false' or a value"
        ),
        LDIFErrorCase(
            name: "an unsupported version",
            ldif: "version: 2\ndn: cn=a,dc=example\ncn: a\n",
            line: 1, message: "unsupported LDIF version '2'; only version 1 is defined"
        ),
        LDIFErrorCase(
            name: "a DN given by URL",
            ldif: "dn:< file:///etc/hostname\ncn: a\n",
            line: 1, message: "the value of dn cannot be given by URL"
        ),
        LDIFErrorCase(
            name: "a DN in base64 that is not UTF-8",
            ldif: "dn:: //79\ncn: a\n",
            line: 1, message: "the value of dn is not valid UTF-8"
        ),
        LDIFErrorCase(
            name: "CRLF line endings count lines the same",
            ldif: "dn: cn=a,dc=example\r\ncn: a\r\n\r\ndn: cn=b,dc=example\r\ncn:: !\r\n",
            line: 5, message: "invalid base64 value for cn"
        ),
    ]

    @Test("Malformed LDIF", arguments: cases)
    func malformed(_ errorCase: LDIFErrorCase) {
        #expect(throws: LDIFError(line: errorCase.line, message: errorCase.message)) {
            try LDIFReader(text: errorCase.ldif).records()
        }
    }

    @Test("The description puts the line number first")
    func description() {
        #expect(LDIFError(line: 12, message: "invalid base64 value for jpegPhoto").description
            == "line 12: invalid base64 value for jpegPhoto")
        #expect(LDIFError(line: 0, message: "cannot open /nowhere: No such file or directory").description
            == "cannot open /nowhere: No such file or directory")
    }

    @Test("Messages quote at most 40 characters of the text, and only printable ASCII")
    func messagesNeverHoldWholeValues() throws {
        let secret = String(repeating: "s3cr3t-", count: 100)
        let ldif = "dn: cn=a,dc=example\nchangetype: \(secret)\n"
        let error = try #require(throws: LDIFError.self) { try LDIFReader(text: ldif).records() }
        #expect(!error.message.contains(secret))
        #expect(error.message == "unknown changetype 's3cr3t-s3cr3t-s3cr3t-s3cr3t-s3cr3t-s3cr3…'; expected add, delete, modify, modrdn or moddn")

        var binary: [UInt8] = Array("dn: cn=a,dc=example\n".utf8)
        binary += [0x00, 0xFF, 0x01] + Array("xyz: value\n".utf8)
        let binaryError = try #require(throws: LDIFError.self) { try LDIFReader(bytes: binary).records() }
        #expect(binaryError == LDIFError(line: 2, message: "invalid attribute description '???xyz'"))

        let badPhoto = "dn: cn=a,dc=example\njpegPhoto:: " + String(repeating: "QUJD", count: 500) + "!"
        let photoError = try #require(throws: LDIFError.self) { try LDIFReader(text: badPhoto).records() }
        #expect(photoError.description == "line 2: invalid base64 value for jpegPhoto")
    }
}
