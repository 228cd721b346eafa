import Foundation
import LDAPKit
import Testing

@Suite("LDIF: values given by file URL")
struct LDIFFileURLTests {
    private static let photo: [UInt8] = [0xFF, 0xD8, 0x00, 0x0A, 0x0D, 0x20, 0x3A, 0xFF, 0xD9]

    @Test("Without allowFileURLs a URL value is an error naming its line, and the file is not read")
    func refusedByDefault() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("secret").path
            try Data("do not read".utf8).write(to: URL(fileURLWithPath: path))
            let ldif = "dn: cn=a,dc=example\ncn: a\ndescription:< file://\(path)\n"
            let error = try #require(throws: LDIFError.self) { try LDIFReader(text: ldif).records() }
            #expect(error == LDIFError(
                line: 3,
                message: "the value of description is given by URL, and file URLs are not read unless allowed"
            ))
            #expect(!error.description.contains("do not read"))
        }
    }

    @Test("With allowFileURLs the file's bytes are the value, in content and change records")
    func readWhenAllowed() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("photo one.jpg").path
            try Data(Self.photo).write(to: URL(fileURLWithPath: path))
            let empty = directory.appendingPathComponent("empty").path
            try Data().write(to: URL(fileURLWithPath: empty))
            let escaped = path.replacingOccurrences(of: " ", with: "%20")
            let ldif = """
                dn: cn=a,dc=example
                jpegPhoto:< file://\(escaped)
                jpegPhoto:<file://localhost\(escaped)
                description:< file://\(empty)

                dn: cn=a,dc=example
                changetype: modify
                replace: jpegPhoto
                jpegPhoto:<
                  file://\(escaped)
                -
                """
            let records = try LDIFReader(text: ldif, allowFileURLs: true).records()
            let dn = try DistinguishedName(parsing: "cn=a,dc=example")
            #expect(records == [
                .content(LDAPEntry(dn: dn, attributes: [
                    LDAPAttribute(name: "jpegPhoto", values: [LDAPValue(bytes: Self.photo), LDAPValue(bytes: Self.photo)]),
                    LDAPAttribute(name: "description", values: [""]),
                ])),
                .modify(dn, [.replace("jpegPhoto", LDAPValue(bytes: Self.photo))]),
            ])
        }
    }

    @Test("Only file URLs with an absolute local path are read", arguments: [
        "http://example.com/photo.jpg",
        "https://example.com/photo.jpg",
        "ftp://example.com/photo.jpg",
        "file:photo.jpg",
        "file://photo.jpg",
        "file://example.com/etc/hostname",
        "file:///bad%zzescape",
        "file:///nul%00byte",
        "/etc/hostname",
    ])
    func unsupportedURL(url: String) {
        let ldif = "dn: cn=a,dc=example\njpegPhoto:< \(url)\n"
        #expect(throws: LDIFError(
            line: 2,
            message: "unsupported URL '\(url)' for jpegPhoto: only file:// URLs with an absolute path are read"
        )) {
            try LDIFReader(text: ldif, allowFileURLs: true).records()
        }
    }

    @Test("Devices and directories are not read", arguments: ["/dev/zero", "/dev/null", "/"])
    func notRegularFile(path: String) {
        let ldif = "dn: cn=a,dc=example\njpegPhoto:< file://\(path)\n"
        #expect(throws: LDIFError(line: 2, message: "cannot read \(path): not a regular file")) {
            try LDIFReader(text: ldif, allowFileURLs: true).records()
        }
    }

    @Test("A file that cannot be read is an error naming the line with its URL")
    func missingFile() {
        let path = "/nonexistent/\(UUID().uuidString).jpg"
        let ldif = "dn: cn=a,dc=example\ncn: a\n\ndn: cn=b,dc=example\njpegPhoto:< file://\(path)\n"
        #expect(throws: LDIFError(line: 5, message: "cannot open \(path): No such file or directory")) {
            try LDIFReader(text: ldif, allowFileURLs: true).records()
        }
    }
}
