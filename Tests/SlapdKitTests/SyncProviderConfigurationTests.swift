import Foundation
import Testing
@testable import SlapdKit

@Suite("The sync provider in the generated cn=config")
struct SyncProviderConfigurationTests {
    private let directory = URL(fileURLWithPath: "/srv/ldapbook", isDirectory: true)
    private let owner = SlapdConfiguration.LDAPIOwner(userID: 0, groupID: 0)

    private func render(_ configure: (inout SlapdConfiguration) -> Void) throws -> String {
        var configuration = SlapdConfiguration(suffix: "dc=example,dc=org", rootPassword: "s3cret-pass")
        configure(&configuration)
        return try configuration.configurationLDIF(directory: directory, ldapiOwner: owner, passwordSalt: [1, 2, 3, 4])
    }

    private func lines(_ ldif: String) -> [String] {
        ldif.split(separator: "\n").map(String.init)
    }

    private func entries(_ ldif: String) -> [String] {
        ldif.components(separatedBy: "\n\n")
    }

    @Test("Off by default: the configuration is the same as one that never heard of it")
    func offByDefault() throws {
        #expect(SlapdConfiguration().syncProvider == nil)
        let plain = try render { _ in }
        #expect(!plain.contains("syncprov"))
        let replicated = try render { $0.replication = .init(serverID: 1, peers: ["ldap://provider2:389"]) }
        #expect(lines(replicated).filter { $0.hasPrefix("olcSp") } == [
            "olcSpNoPresent: TRUE", "olcSpReloadHint: TRUE", "olcSpCheckpoint: 100 10", "olcSpSessionLog: 10000",
        ])
        // The defaults are the settings replication always had.
        let replicatedWithDefaults = try render {
            $0.replication = .init(serverID: 1, peers: ["ldap://provider2:389"])
            $0.syncProvider = .init()
        }
        #expect(replicatedWithDefaults == replicated)
    }

    @Test("Alone, it loads syncprov and adds its overlay on the main database, last")
    func alone() throws {
        let ldif = try render { $0.syncProvider = .init(sessionLog: 500, checkpointOperations: 20, checkpointMinutes: 5) }
        let text = lines(ldif)
        #expect(text.filter { $0.hasPrefix("olcModuleLoad: ") } == ["olcModuleLoad: {0}back_mdb", "olcModuleLoad: {1}syncprov"])
        #expect(entries(ldif).last == """
            dn: olcOverlay={0}syncprov,olcDatabase={1}mdb,cn=config
            objectClass: olcOverlayConfig
            objectClass: olcSyncProvConfig
            olcOverlay: {0}syncprov
            olcSpCheckpoint: 20 5
            olcSpSessionLog: 500

            """)
        #expect(text.filter { $0.hasPrefix("dn: olcOverlay=") }.count == 1)
        #expect(!text.contains { $0.hasPrefix("olcServerID") || $0.hasPrefix("olcSyncrepl") || $0.contains("accesslog") })
        // The default indexes already cover entryUUID and entryCSN: nothing is added.
        #expect(text.filter { $0.contains("entryUUID") } == ["olcDbIndex: entryUUID,entryCSN eq"])
    }

    @Test("A syncprov module already listed is loaded once")
    func moduleOnce() throws {
        let text = lines(try render {
            $0.extraModules = ["syncprov"]
            $0.syncProvider = .init()
        })
        #expect(text.filter { $0.hasPrefix("olcModuleLoad: ") } == ["olcModuleLoad: {0}back_mdb", "olcModuleLoad: {1}syncprov"])
    }

    @Test("With replication, its settings go to the one syncprov overlay replication adds")
    func withReplication() throws {
        let ldif = try render {
            $0.replication = .init(serverID: 2, peers: ["ldap://provider1:389"])
            $0.syncProvider = .init(sessionLog: 2500, checkpointOperations: 50, checkpointMinutes: 1)
        }
        let text = lines(ldif)
        #expect(text.filter { $0.hasPrefix("olcModuleLoad: ") }
            == ["olcModuleLoad: {0}back_mdb", "olcModuleLoad: {1}syncprov", "olcModuleLoad: {2}accesslog"])
        let mainOverlays = text.filter { $0.hasPrefix("dn: olcOverlay=") && $0.hasSuffix("olcDatabase={1}mdb,cn=config") }
        #expect(mainOverlays == ["dn: olcOverlay={0}syncprov,olcDatabase={1}mdb,cn=config",
                                 "dn: olcOverlay={1}accesslog,olcDatabase={1}mdb,cn=config"])
        let provider = try #require(entries(ldif).first { $0.hasPrefix("dn: olcOverlay={0}syncprov,olcDatabase={1}mdb") })
        #expect(lines(provider).filter { $0.hasPrefix("olcSp") } == ["olcSpCheckpoint: 50 1", "olcSpSessionLog: 2500"])
        #expect(entries(ldif).last?.hasPrefix("dn: olcOverlay={1}accesslog,olcDatabase={1}mdb,cn=config\n") == true)
    }

    @Test("entryUUID and entryCSN get equality indexes when the configured indexes lack them")
    func indexes() throws {
        let none = lines(try render {
            $0.indexes = [SlapdConfiguration.Index(["objectClass"], for: [.equality])]
            $0.syncProvider = .init()
        })
        #expect(none.filter { $0.hasPrefix("olcDbIndex: ") } == ["olcDbIndex: objectClass eq", "olcDbIndex: entryUUID,entryCSN eq"])

        let partly = lines(try render {
            $0.indexes = [SlapdConfiguration.Index(["cn", "entryCSN"], for: [.presence]),
                          SlapdConfiguration.Index(["entryUUID"], for: [.equality])]
            $0.syncProvider = .init()
        })
        #expect(partly.filter { $0.hasPrefix("olcDbIndex: ") }
            == ["olcDbIndex: cn pres", "olcDbIndex: entryUUID eq", "olcDbIndex: entryCSN pres,eq"])

        let withoutProvider = lines(try render { $0.indexes = [SlapdConfiguration.Index(["objectClass"], for: [.equality])] })
        #expect(withoutProvider.filter { $0.hasPrefix("olcDbIndex: ") } == ["olcDbIndex: objectClass eq"])
    }

    @Test("Negative settings are refused")
    func negative() {
        let error = #expect(throws: SlapdError.self) { try render { $0.syncProvider = .init(sessionLog: -1) } }
        #expect(error?.kind == .invalidConfiguration)
    }
}
