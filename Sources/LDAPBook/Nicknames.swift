import Synchronization

/// Given names and the names they are known by: `bob` for Robert, `sasha` for Aleksandr,
/// `pepe` for José, and back again, so that whoever types one finds a person stored under
/// another.
///
/// The names are in ``data``, one ``Group`` a line, looked up in the text itself or in a
/// table parsed from it (``groups(containing:)``). Names are kept folded, as ``NameFolding`` folds a word (`José` is `jose`, `Jürgen` is `jurgen`),
/// so a folded query word is looked up as it is.
enum Nicknames {
    /// A formal given name, its other spellings, and its diminutives, in one language or
    /// tradition: Robert, and Rob, Robbie, Bob, Bobby, Bert. A diminutive may belong to
    /// several groups (`alex` to Alexander, Alexandra and Alexis).
    struct Group: Sendable, Hashable {
        /// The formal name and its other spellings, the first the one the group is known
        /// by: `katherine`, `catherine`, `kathryn`, `katharine`. Never empty.
        let formalNames: [String]
        /// The diminutives: `kate`, `katie`, `kathy`, …
        let diminutives: [String]
        /// The language the group is of, as its section of ``data`` is headed: `English`.
        let language: String

        /// The formal name the group is known by: `robert`, for "bob: nickname of Robert".
        var formalName: String { formalNames[0] }

        /// Every name of the group, the formal ones first.
        var names: [String] { formalNames + diminutives }
    }

    /// The other names `word` (folded, a whole word) stands for or is stood for by, in the
    /// order of ``data`` (each group's formal names first), without `word` and without
    /// repeats: `bob` gives `robert`, `rob`, `robbie`, …; `robert` gives `rob`, `robbie`,
    /// `bob`, …. Empty when `word` is no known name.
    static func alternatives(of word: String) -> [String] {
        alternatives(of: word, among: groups(containing: word))
    }

    /// The alternatives of `word` among `groups`, the groups it is in.
    static func alternatives(of word: String, among groups: [Group]) -> [String] {
        var seen: Set<String> = [word], alternatives: [String] = []
        for group in groups {
            for other in group.names where seen.insert(other).inserted { alternatives.append(other) }
        }
        return alternatives
    }

    /// The formal names a diminutive stands for, one for each group it is a diminutive in
    /// (``Group/formalName``): `bob` gives `robert`, `alex` gives `alexander`, `alexandra`,
    /// `alexis`, …. Empty when `word` is only ever a formal name (or a spelling of one), or
    /// is no known name.
    static func formalNames(for word: String) -> [String] {
        formalNames(for: word, among: groups(containing: word))
    }

    /// The formal names `word` stands for among `groups`, the groups it is in.
    static func formalNames(for word: String, among groups: [Group]) -> [String] {
        var seen: Set<String> = [], formalNames: [String] = []
        for group in groups where group.diminutives.contains(word) && seen.insert(group.formalName).inserted {
            formalNames.append(group.formalName)
        }
        return formalNames
    }

    /// The groups `word` (folded, a whole word) belongs to, in the order of ``data``.
    ///
    /// The first few words a process looks up are looked up in the lines of the text they are
    /// in (a `find` looks up a word or two: parsing all three thousand names into a table took
    /// a millisecond of it); after them, the text is parsed once into ``table``, where each
    /// lookup is one hash (an import looks up thousands).
    static func groups(containing word: String) -> [Group] {
        if lookups.add(1, ordering: .relaxed).oldValue < 4 { return Table.groups(containing: word, in: text) }
        return table.groups(containing: word)
    }

    /// How many words were looked up.
    private static let lookups = Atomic<Int>(0)

    /// Every group, in the order of ``data``.
    static var groups: [Group] { table.groups }

    /// Every group, parsed from ``data`` on first use.
    static let table = Table(parsing: data)

    /// ``data``'s bytes, which a name is looked up in.
    static let text = Array(data.utf8)

    /// Groups parsed from text in the form of ``data``: lines `[Language]` head a section; a
    /// line `formal other-spelling…: diminutive…` is a group of that section (a line without
    /// `:` is formal names only); `#` starts a comment; words are separated by spaces or
    /// tabs. The text is read as bytes: its names are ASCII.
    struct Table: Sendable {
        /// The groups, in the order of the text.
        let groups: [Group]
        /// The groups of each name of every group, by index in ``groups``, in order.
        private let memberships: [String: [Int]]
        /// The lines that are neither a heading, a comment nor a group with a formal name:
        /// none in ``Nicknames/data``, as a test checks.
        let malformedLines: [String]

        /// The table of `text`.
        init(parsing text: String) {
            var groups: [Group] = []
            var malformed: [String] = []
            var language = ""
            for rawLine in Array(text.utf8).split(separator: 0x0A) {
                switch Line(rawLine) {
                case .blank: continue
                case .heading(let heading): language = heading
                case .group(let formal, let diminutives):
                    groups.append(Group(formalNames: formal, diminutives: diminutives, language: language))
                case .malformed: malformed.append(String(decoding: rawLine, as: UTF8.self))
                }
            }
            var memberships: [String: [Int]] = [:]
            for (index, group) in groups.enumerated() {
                for name in group.names where memberships[name]?.last != index {
                    memberships[name, default: []].append(index)
                }
            }
            self.groups = groups
            self.memberships = memberships
            self.malformedLines = malformed
        }

        /// The groups `name` is in, in order.
        func groups(containing name: String) -> [Group] {
            (memberships[name] ?? []).map { groups[$0] }
        }

        /// The groups of `text` (in the form of ``data``) that `name` is a word of, in order:
        /// only the lines it is in are parsed, and the headings.
        static func groups(containing name: String, in text: [UInt8]) -> [Group] {
            let word = Array(name.utf8)
            guard !word.isEmpty, !word.contains(where: { Line.isSeparator($0) || $0 == 0x0A }) else { return [] }
            var groups: [Group] = []
            var language = ""
            var start = 0
            while start < text.count {
                var end = start
                while end < text.count && text[end] != 0x0A { end += 1 }
                var first = start
                while first < end && Line.isSeparator(text[first]) { first += 1 }
                if first < end && text[first] == UInt8(ascii: "["), case .heading(let heading) = Line(text[start..<end]) {
                    language = heading
                }
                // Whether the word is somewhere in the line; the line, parsed, says whether as a name.
                var at = first, found = false
                while !found && at + word.count <= end {
                    if text[at] == word[0] {
                        var same = 1
                        while same < word.count && text[at + same] == word[same] { same += 1 }
                        found = same == word.count
                    }
                    at += 1
                }
                if found, case .group(let formal, let diminutives) = Line(text[start..<end]),
                   formal.contains(name) || diminutives.contains(name) {
                    groups.append(Group(formalNames: formal, diminutives: diminutives, language: language))
                }
                start = end + 1
            }
            return groups
        }
    }

    /// One line of the text, parsed.
    private enum Line {
        case blank
        case heading(String)
        case group(formal: [String], diminutives: [String])
        case malformed

        static func isSeparator(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }

        init(_ rawLine: ArraySlice<UInt8>) {
            func words(_ part: ArraySlice<UInt8>) -> [String] {
                part.split(whereSeparator: Self.isSeparator).map { String(decoding: $0, as: UTF8.self) }
            }
            let line = rawLine.firstIndex(of: UInt8(ascii: "#")).map { rawLine[..<$0] } ?? rawLine
            let lineWords = words(line)
            if lineWords.isEmpty {
                self = .blank
                return
            }
            let joined = lineWords.joined(separator: " ")
            if joined.hasPrefix("[") && joined.hasSuffix("]") {
                self = .heading(String(joined.dropFirst().dropLast()))
                return
            }
            let colon = line.firstIndex(of: UInt8(ascii: ":"))
            let formal = words(colon.map { line[..<$0] } ?? line)
            let diminutives = colon.map { words(line[line.index(after: $0)...]) } ?? []
            self = formal.isEmpty ? .malformed : .group(formal: formal, diminutives: diminutives)
        }
    }

    /// The groups, written for ldapbook from the common usage of each language, not taken
    /// from a published list. Names are folded (lower-case ASCII letters, accents dropped,
    /// as ``NameFolding`` folds them: `Małgorzata` is `malgorzata`) and are single words:
    /// a name of two words (`Jean-Pierre`) cannot be one.
    ///
    /// To add a group, add a line to its language's section (alphabetical by formal name):
    /// the formal name, its other spellings, a colon, then the diminutives, all separated
    /// by spaces (`robert: rob robbie bob`). A name already in a group of the section goes
    /// into that group's line rather than a new one that repeats its formal name. Add only
    /// diminutives that people really use for that name alone: a short name shared by many
    /// (`jo`) finds too many people to be worth listing. Romanised names (Russian, Greek…)
    /// list their common spellings as formal names (`dmitry dmitri dmitriy: dima mitya`).
    static let data = """
        [English]
        abigail: abby abbie gail
        abraham: abe bram
        adelaide: addie addy
        adeline: addie addy
        agatha: aggie
        agnes: aggie nessie
        alan allan allen: al
        albert: al bert bertie albie
        alberta: bertie
        alexander: alex alec sandy xander lex
        alexandra: alex alexa lexi sandy
        alexis: alex lexi
        alfred: alf alfie fred freddie al
        alice: ally allie
        alison allison: ally allie ali
        alvin: al
        amanda: mandy manda
        amelia: millie amy
        andrew: andy drew
        angela: angie
        angelina: angie lina
        anne ann anna: annie nan nancy
        anthony antony: tony ant
        antoinette: toni netty
        antonia: toni
        arabella: bella
        archibald: archie
        arthur: art artie
        augustine: gus
        augustus: gus
        barbara: barb barbie babs
        barnabas barnaby: barney
        bartholomew: bart
        beatrice beatrix: bea trixie
        benedict: ben benny
        benjamin: ben benny benji benjy
        bernadette: bernie
        bernard: bernie barney
        bernice: bernie
        bertha: bertie
        bertram: bert bertie
        bradley: brad
        bridget: biddy bridie
        camilla: millie milly cammie
        candace candice: candy
        caroline carolyn: carol carrie caro
        cassandra: cass cassie sandy
        cecilia cecily: cissy cissie
        charles: charlie chuck chas chaz
        charlotte: lottie lotte charlie
        chester: chet
        christian: chris christy
        christina christine: chris chrissie chrissy tina kris
        christopher kristopher: chris kris kit topher
        clayton: clay
        clement: clem
        clementine: clem
        clifford: cliff
        constance: connie
        cordelia: delia
        cornelia: connie nell
        curtis: curt
        cynthia: cindy
        cyrus: cy
        daniel: dan danny
        danielle daniela: dani
        david: dave davey davie
        deborah debra: deb debbie debby
        delbert: del
        dennis: den denny
        desmond: des dez
        dolores: lola lolita dolly
        dominic dominick: dom
        donald: don donnie
        dorothea: dora thea
        dorothy: dot dottie dolly
        douglas: doug dougie
        edgar: ed eddie
        edith: edie
        edmund: ed eddie ned
        edward: ed eddie eddy ted teddy ned
        edwin: ed eddie
        eleanor elinor: ellie elle nell nellie nora
        elijah: eli
        elizabeth elisabeth: liz lizzie lizzy beth betty bette bess bessie betsy eliza lisa libby elsie
        ellen: ellie nell nellie
        emily: em emmy
        emma: em emmy
        emmeline: emmy
        emmanuel immanuel: manny
        ernest: ernie
        ernestine: ernie tina
        esther: essie hetty
        eudora: dora
        eugene: gene
        eugenia: genie
        evangeline: vangie
        evelyn: evie eve
        ezekiel: zeke
        felicity: flick fliss
        ferdinand: ferdie ferdy
        fitzgerald: fitz
        florence: flo florrie flossie
        frances: fran frannie fanny
        francis: frank frankie fran
        franklin: frank frankie
        frederica: freddie
        frederick frederic: fred freddie freddy
        gabriel: gabe
        gabrielle gabriella: gabby gabi
        geoffrey jeffrey: geoff jeff
        george: georgie
        georgina georgia: georgie
        gerald jerald: gerry jerry
        geraldine: gerry
        gerard: gerry ged
        gertrude: gertie trudy
        gilbert: gil bert
        gillian: gill jill
        gordon: gordie
        gregory: greg
        gustave gustavus: gus
        gwendolyn gwendoline: gwen wendy
        harold: harry hal
        harriet: hattie hatty
        harrison: harry
        helen helena: nell nellie lena
        henrietta: etta hettie hetty
        henry: harry hank hal
        herbert: herb bert bertie
        howard: howie
        humphrey: humph
        ignatius: iggy
        imogen: immy
        isaac: ike
        isabel isabella isobel: izzy bella belle isa
        isadora isidora: izzy dora
        jacob: jake jakey
        jacqueline: jackie jacqui
        james: jim jimmy jamie jem
        jane: janey jenny
        janet: jan
        jasmine: jas jaz
        jedediah jebediah: jed
        jefferson: jeff
        jennifer: jen jenny jenn
        jeremiah: jerry jem
        jeremy: jerry jez
        jerome: jerry
        jessica: jess jessie
        jocelyn: joss
        john jon: jack johnny jackie jonny
        jonathan: jon jonny jonty
        joseph: joe joey
        josephine: josie
        joshua: josh
        judith: judy jude
        julia: julie jules
        julian: jules
        juliet juliette: jules
        julius: jules
        katherine catherine kathryn katharine: kate katie katy kathy cathy kit kitty kat kay
        kathleen: kath kathy kay
        katrina: trina kat
        kenneth: ken kenny
        kimberly kimberley: kim
        lavinia: vinnie
        lawrence laurence: larry laurie
        leonard: leo len lenny
        leonora: nora
        leopold: leo
        leslie lesley: les
        lester: les
        leticia letitia: letty lettie tish
        lewis louis: lou louie
        lillian: lily lil lilly
        lorraine: lorrie
        louise louisa: lou lulu
        lucille: lucy
        lucinda: cindy lucy
        lydia: liddy
        mackenzie: mack kenzie
        madeline madeleine: maddie maddy
        madison: maddie maddy
        malcolm: mal
        manuel: manny
        margaret: peggy peg meg maggie marge margie greta madge maisie
        marjorie margery: marge margie
        martha: marty mattie
        martin: marty
        martina: tina
        mary: molly polly mae mamie
        matilda mathilda: tilly tillie maud
        matthew: matt matty
        maurice morris: mo moe
        maximilian: max
        maxine: max
        maxwell: max
        melanie: mel
        melissa: mel missy lissa
        melvin: mel
        michael: mike mikey mick mickey micky
        michelle: shelly
        mildred: millie milly
        millicent: millie milly
        miriam: mimi
        mitchell: mitch
        montgomery: monty
        mortimer: mort morty
        moses: mo moe
        natalie: nat
        nathaniel nathanael: nate nat nathan
        nicholas nicolas: nick nicky nico
        nicola nicole: nicky nikki
        norman: norm
        obadiah: obie
        oliver: ollie olly
        olivia: liv livvy ollie
        oswald: ozzy oz
        pamela: pam
        patricia: pat patty patti tricia trish patsy
        patrick: pat paddy
        pauline: polly
        penelope: penny pen
        percival: percy
        peter: pete petey
        philip phillip: phil pip
        philippa: pippa pip
        priscilla: cilla prissy
        prudence: prue pru
        rachel: rach
        randall: randy
        randolph: randy
        raphael: rafe
        raymond: ray
        rebecca: becky becca beck
        reginald: reg reggie
        reuben ruben: rube
        richard: rick ricky dick dickie rich richie
        robert: rob robbie robby bob bobby bert
        roberta: bobbie robbie bertie
        roderick: rod roddy rick
        rodney: rod
        ronald: ron ronnie
        rosalie: rosie
        rosalind: ros roz
        rosamund: ros roz
        rosemary: rosie
        roxanne: roxy
        rudolph: rudy rudi dolph
        russell: russ rusty
        samantha: sam sammy
        samuel: sam sammy
        sandra: sandy
        sarah sara: sally sadie
        sebastian: seb bastian
        seymour: sy
        sidney sydney: sid
        solomon: sol
        sophia: sophie soph
        spencer: spence
        stanley: stan
        stephanie: steph stevie
        stephen steven: steve stevie
        stuart stewart: stu
        susan: sue susie suzy
        susanna susannah suzanne: sue susie suzy
        sylvester silvester: sly
        sylvia: syl
        tabitha: tabby
        tamara: tammy
        terence terrence: terry
        thaddeus: tad thad
        theodora: thea dora
        theodore: theo ted teddy
        theophilus: theo
        theresa teresa: terry tess tessa tessie
        thomas: tom tommy thom
        tiffany: tiff
        timothy: tim timmy
        tobias: toby
        tristan: tris
        tyrone: ty
        valentina: val tina
        valentine: val
        valerie: val
        vanessa: nessa ness
        veronica: ronnie
        victor: vic
        victoria: vicky vicki tori vic
        vincent: vince vinnie vinny
        virginia: ginny ginger
        vivian vivienne: viv
        wallace: wally
        walter: walt wally
        wesley: wes
        wilfred wilfrid: wilf fred
        wilhelmina: willa mina minnie billie
        william: will bill billy willy willie liam
        winifred: winnie freda
        winston: win winnie
        woodrow: woody
        zachary zachariah zechariah: zach zack zak

        [Irish, Scottish and Welsh]
        alasdair alistair alastair: ali ally
        dafydd: dai
        llewellyn llywelyn: llew
        padraig: paddy

        [German]
        alexander: alex sascha
        andreas: andi anderl
        angelika: angie geli
        anna: anni annerl
        anton: toni
        barbara: babsi barbel
        benedikt: bene beni
        benjamin: benni
        bernhard: bernd benno
        christian: chris
        christine christina: christel tina chrissi
        christoph: chris stoffel
        cornelia kornelia: conny nele
        daniel: dani
        dominik: domi
        dorothea: thea dora dorte
        elisabeth: lisa liesel liesl liese lise elli sissi sisi ilse
        florian: flo
        franz: franzl
        franziska: franzi
        friederike: frieda rike friedl
        friedrich: fritz friedel
        gabriele: gabi
        georg: jorg schorsch
        gerhard: gerd gert
        gertrud: gerti trude trudi
        gottfried: gotz friedel
        heinrich: heinz heini hein
        helene: lene leni
        hildegard: hilde hildi
        johanna: hanna hanne hanni
        johannes johann: hans hansi hannes jan jens
        josef joseph: sepp seppi seppl jupp
        karl carl: kalle karli
        katharina: kathi kati kathe katja
        konrad: kurt koni conny
        konstantin: konsti
        leonhard: leo
        leopold: poldi leo
        lorenz: lenz
        ludwig: lutz
        magdalena: lena leni magda
        manfred: manni
        margarete margarethe: grete gretel gretchen greta
        maria: mitzi mizzi ria mia
        matthias: matze hias
        maximilian: max maxi
        michael: michi micha
        monika: moni
        nikolaus: klaus claus niko niklas
        reinhard: reini
        rudolf: rudi dolf
        sebastian: basti bastian wastl
        stefan stephan: steff
        stefanie stephanie: steffi
        susanne: susi sanne
        theresia therese: resi
        tobias: tobi
        ulrich: uli ulli utz
        ulrike: ulli rike
        ursula: uschi ulla
        veronika: vroni
        wilhelm: willi willy
        wolfgang: wolf wolfi

        [Dutch]
        adrianus adriaan: arie adrie ad
        albertus: bert ab
        anna: anneke
        antonius: toon ton teun
        bernardus: ben
        catharina: katrien trijntje rina
        cornelia: corrie nel
        cornelis: kees cor
        diederik: dirk
        elisabeth: els elsje lies liesbeth
        franciscus: frans
        geertruida: truus
        gerarda: gerda
        gerardus gerard: gerrit ger gert
        gijsbert: gijs
        hendrik hendrikus: henk rik
        hendrika: riek rika
        jacoba: coby
        jacobus jakob jacob: jaap koos sjaak
        johanna: joke hanna hanneke
        johannes: jan hans johan joop hannes
        josephus: sjef jef joop
        lambertus: bert
        maria: mies ria
        marinus: rinus
        martinus: tinus
        nicolaas: klaas niek
        petronella: nel nelleke
        petrus pieter: piet
        rudolf: ruud
        theodorus: theo
        wilhelmina: mien
        willem wilhelmus: wim pim

        [French]
        alexandre: alex
        anne: annette nanette ninon
        brigitte: gigi
        catherine: cathy
        christophe: chris
        elisabeth: babette lisette
        emmanuel: manu
        frederic: fred
        gabrielle: gaby
        genevieve: ginette
        isabelle: isa
        jacqueline: jacky
        jacques: jacquot jacky
        jean: jeannot
        jeanne: jeannette jeannine
        josephine: josette fifi
        marguerite: margot
        marie: manon marion
        maxime: max
        nicolas: nico
        philippe: phil
        pierre: pierrot
        raphael: raph
        sebastien: seb
        stephane: steph
        veronique: vero

        [Spanish]
        adolfo: fito
        alejandra: ale alex
        alejandro: alex ale
        alfonso: poncho
        alberto: beto
        antonia: toni
        antonio: toni tono
        asuncion: asun
        concepcion: concha conchita
        consuelo: chelo
        cristina: cris
        daniel: dani
        dolores: lola loles
        eduardo: lalo edu
        encarnacion: encarna
        enrique: quique kike
        ernesto: neto
        federico: fede
        fernando: nando fer
        francisca: paca paquita
        francisco: paco pancho curro paquito
        gilberto: beto
        gonzalo: gonza chalo
        graciela: chela
        gregorio: goyo
        guadalupe: lupe lupita
        guillermo: memo guille
        heriberto: beto
        humberto: beto
        ignacio: nacho
        inmaculada: inma
        isabel: chabela isa
        javier: javi
        jesus: chucho chuy chus
        joaquin: quino
        jose: pepe pepito
        josefa josefina: pepa pepita fina
        juan: juanito juancho
        juana: juanita
        luis: lucho
        manuel: manolo manu
        margarita: marga rita
        maria: mari maruja
        mercedes: merche
        miguel: migue
        montserrat: montse
        norberto: beto
        pilar: pili
        purificacion: puri
        rafael: rafa
        ramon: moncho
        remedios: reme
        rigoberto: rigo
        roberto: beto
        rodolfo: fito
        rodrigo: rodri
        rosario: charo
        salvador: chava salva
        santiago: santi
        sebastian: sebas
        soledad: sole
        teresa: tere
        vicente: chente

        [Portuguese]
        alberto: beto
        alexandre: xande
        ana: aninha
        antonio: toninho tonico
        beatriz: bia
        eduardo: dudu
        fernando: nando
        francisco: chico xico
        gabriel: biel gabi
        gabriela: gabi
        guilherme: gui
        henrique: rique
        isabel: bel
        joaquim: quim
        jose: ze zeca
        leonardo: leo
        manuel: manel
        margarida: guida
        paulo: paulinho
        rafael: rafa
        roberto: beto
        sebastiao: tiao

        [Italian]
        alberto: berto
        alessandra: sandra ale
        alessandro: sandro ale alex
        antonella: nella
        antonio: tonio tonino toto nino
        beatrice: bice bea
        caterina: rina
        daniele: dani lele
        domenico: mimmo
        elisabetta: betta lisa
        emanuele: lele manu
        federico: fede
        filippo: pippo
        francesca: franca cesca chicca
        francesco: franco cesco checco ciccio
        gabriele: lele
        giovanna: gianna vanna
        giovanni: gianni vanni nanni nino
        giuseppe: beppe peppe peppino pino bepi pippo
        giuseppina: pina peppina
        leonardo: leo nardo
        lorenzo: enzo renzo
        luigi: gigi gino
        margherita: rita ghita
        massimiliano: max massi
        massimo: max
        nicola: nico
        raffaele: lele raffa
        roberto: berto
        salvatore: toto turi salvo
        tommaso: maso
        umberto: berto
        vincenzo: enzo cenzo

        [Russian]
        aleksandr alexandr alexander: sasha sashka shura sanya
        aleksandra alexandra: sasha shura sanya
        aleksei alexei alexey aleksey: alyosha lyosha
        anastasia anastasiya: nastya asya
        anatoly anatoliy anatolii: tolya tolik
        andrei andrey: andryusha
        anna: anya anyuta nyura
        antonina: tonya
        arkady arkadiy: arkasha
        artyom artem: tyoma
        boris: borya
        darya daria: dasha
        dmitry dmitri dmitriy: dima mitya
        eduard: edik
        ekaterina yekaterina: katya katyusha
        elena yelena: lena
        elizaveta yelizaveta: liza
        evdokia yevdokia: dunya
        evgenia yevgenia evgeniya: zhenya
        evgeny yevgeny evgeniy: zhenya
        fyodor fedor: fedya
        galina: galya
        gennady gennadiy: gena
        georgy georgiy georgii: zhora gosha
        grigory grigoriy grigori: grisha
        ilya: ilyusha
        innokenty: kesha
        irina: ira
        ivan: vanya
        kirill: kiryusha
        konstantin: kostya
        ksenia kseniya: ksyusha
        larisa: lara
        leonid: lyonya
        lev: lyova
        lidia lidiya: lida
        lyubov: lyuba
        lyudmila ludmila: lyuda mila
        maksim maxim: maks
        margarita: rita
        maria mariya: masha manya
        mikhail: misha
        nadezhda: nadya
        natalia natalya: natasha
        nikolai nikolay: kolya
        olga: olya
        pavel: pasha
        polina: polya
        pyotr petr: petya
        raisa: raya
        roman: roma
        semyon semen: syoma
        sergei sergey: seryozha serezha
        sofia sofya: sonya
        stanislav: stas
        stepan: styopa
        svetlana: sveta
        svyatoslav: slava
        tamara: toma
        tatiana tatyana: tanya
        timofei timofey: tima
        valentin: valya
        valentina: valya
        valeria valeriya: lera
        valery valeriy valeri: valera
        vasily vasiliy vasili: vasya
        veronika: nika
        viktor: vitya
        vitaly vitaliy vitali: vitalik vitya
        vladimir: volodya vova
        vladislav: vlad vladik slava
        vyacheslav: slava
        yakov: yasha
        yaroslav: slava yarik
        yulia yuliya: yulya
        yuri yury yuriy: yura
        zinaida: zina

        [Ukrainian]
        bohdan: bodya
        dmytro: dima
        halyna: halya
        kateryna: katya
        mykhailo: misha
        mykola: kolya
        oleksandr: sashko sasha
        oleksandra: sasha
        oleksii oleksiy: lyosha
        olena: lena
        volodymyr: volodya vova
        yevhen: zhenya
        yurii: yura

        [Polish]
        agnieszka: aga
        aleksander: olek alek
        aleksandra: ola olka
        andrzej: jedrek
        anna: ania anka
        antoni: antek
        barbara: basia
        bartlomiej: bartek
        boleslaw: bolek
        czeslaw: czesiek
        edward: edek
        elzbieta: ela elka
        franciszek: franek
        grzegorz: grzesiek
        helena: hela
        henryk: heniek
        jadwiga: jadzia
        jakub: kuba
        jan: janek jasiek jas
        jaroslaw: jarek
        jerzy: jurek
        joanna: asia joasia
        jolanta: jola
        jozef: jozek
        katarzyna: kasia
        kazimierz: kazik
        krystyna: krysia
        krzysztof: krzys krzysiek
        maciej: maciek
        magdalena: magda madzia
        malgorzata: gosia malgosia
        maria: marysia
        michal: misiek
        mieczyslaw: mietek
        miroslaw: mirek
        pawel: pawelek
        piotr: piotrek
        przemyslaw: przemek
        radoslaw: radek
        ryszard: rysiek
        slawomir: slawek
        stanislaw: stasiek staszek stas
        tadeusz: tadek
        tomasz: tomek
        urszula: ula
        wieslaw: wiesiek
        wincenty: wicek
        wladyslaw: wladek wladzio
        wojciech: wojtek
        zbigniew: zbyszek
        zofia: zosia

        [Scandinavian]
        birgitta: britt gittan
        cecilia: cissi
        charlotta: lotta
        elisabet: lisbet lisa
        fredrik: fredde
        gustav gustaf: gurra
        ingeborg: inga
        joakim: jocke
        johanna: hanna
        karl carl: kalle
        katarina: kajsa karin
        kristina christina: stina kicki kia
        kristoffer christoffer: stoffe
        lars: lasse
        margareta: greta
        mikael michael: micke
        niklas: nicke
        nils: nisse
        olof olov: olle
        per: pelle

        [Finnish]
        aleksanteri: santeri
        elisabet: liisa
        johannes: juhani juha jussi hannu
        katariina: kaisa katri kati

        [Czech]
        frantisek: franta
        jan: honza jenik
        jaroslav: jarda
        jindrich: jindra
        jiri: jirka
        josef: pepa pepik
        katerina: katka
        ladislav: lada
        lucie: lucka
        miroslav: mirek
        stanislav: standa
        tereza: terka
        vaclav: vasek
        vladimir: vlada

        [Hungarian]
        andras: andris
        erzsebet: erzsi
        ferenc: feri
        gabor: gabi
        gyorgy: gyuri
        istvan: pista pisti
        janos: jancsi
        jozsef: jozsi
        katalin: kati kata
        laszlo: laci
        mihaly: misi
        sandor: sanyi
        zsuzsanna: zsuzsa zsuzsi

        [Greek]
        aikaterini: katerina
        athanasios: thanasis thanos
        charalambos: babis charis
        dimitrios: dimitris mitsos
        emmanouil: manolis
        evangelos: vangelis
        georgios: giorgos
        ioannis: giannis yannis
        konstantinos: kostas kostis dinos
        nikolaos: nikos
        panagiotis: panos takis
        vasileios: vasilis

        [Hebrew]
        avraham: avi
        binyamin: beni
        mordechai: moti
        yaakov: kobi
        yitzhak: itzik
        yosef: yossi

        [Arabic]
        muhammad mohammed mohammad mohamed muhammed: mo hamoudi
        """
}
