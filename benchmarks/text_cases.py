"""Hand-made page tests (olmOCR-bench style) for the failure kinds of issue 20.

Each test was written by looking at the page (rendered with pypdfium2) and checked against
pypdfium2's text of it for the exact characters the text layer holds (a page whose text layer
is wrong still gets the test a reader would want); never written from pdfthin's output.
Phrases stay within one printed line where a hyphenated line break would otherwise split
them. Kinds: see :mod:`benchmarks.metrics.texttests`.
"""

from __future__ import annotations

from benchmarks.metrics.texttests import TextTest as T

TRACEMONKEY = "pdfjs/tracemonkey.pdf"
TURNER = "olmocr-gnarly/gnarly/pdftotext_two_column_issue.pdf"
OLMO = "olmocr-gnarly/gnarly/olmo-page-1.pdf"
MULTICOLUMN = "sample-files/multicolumn.pdf"
CREATIVITY = "pypdf-benchmarks/1601.03642.pdf"
MASERS = "pypdf-benchmarks/2201.00021.pdf"
RTL_1 = "docling/right_to_left_01.pdf"
RTL_2 = "docling/right_to_left_02.pdf"
RTL_3 = "docling/right_to_left_03.pdf"
HABIBI = "sample-files/habibi.pdf"
EDGAR = "olmocr-gnarly/sample_dataset/edgar.pdf"
HEALTH = "camelot/health.pdf"
BUDGET = "camelot/budget.pdf"
BIRDISLAND = "camelot/birdisland.pdf"
NEWSPAPER = "olmocr-gnarly/gnarly/newspaper.pdf"
SCI_TABLES = "olmocr-gnarly/gnarly/lots_of_sci_tables.pdf"

TEXT_TESTS: tuple[T, ...] = (
    # --- two-column papers ----------------------------------------------------------------
    T(
        TRACEMONKEY,
        1,
        "present",
        "Trace-based Just-in-Time Type Specialization for Dynamic",
        "the title, first line",
    ),
    T(
        TRACEMONKEY,
        1,
        "order",
        "example, is the de facto standard for client-side web programming",
        "left column ends before the right column starts",
        "and is used for the application logic",
    ),
    T(
        TRACEMONKEY,
        1,
        "order",
        "1. Introduction",
        "section heading before its first sentence",
        "Dynamic languages such as JavaScript, Python, and Ruby",
    ),
    T(
        TRACEMONKEY,
        1,
        "order",
        "programs.",
        "the abstract ends before the ACM categories",
        "Categories and Subject Descriptors",
    ),
    T(
        TRACEMONKEY,
        1,
        "order",
        "chines must provide a low startup time and high performance.",
        "right column, paragraph order",
        "Compilers for statically typed languages rely on type",
    ),
    T(
        TRACEMONKEY,
        2,
        "order",
        "iterations of the loop.",
        "page 2 starts in the left column",
        "Every compiled trace contains all the guards (checks) required",
    ),
    T(
        TURNER,
        1,
        "present",
        "Turner syndrome–issues to consider for transition",
        "title (en dash kept)",
    ),
    T(
        TURNER,
        1,
        "order",
        "Background: Turner syndrome (TS) is associated with a spectrum",
        "abstract paragraphs in order",
        "Areas of agreement: The majority of girls with TS",
    ),
    T(
        TURNER,
        1,
        "order",
        "Areas of controversy: Several unanswered questions remain",
        "abstract paragraphs in order",
        "Areas timely for developing research",
    ),
    T(
        TURNER,
        2,
        "order",
        "have the classical features of TS, and a low threshold",
        "left column ends before the right column starts",
        "for investigations is encouraged to avoid late",
    ),
    T(
        TURNER,
        2,
        "order",
        "Background",
        "heading before its paragraph",
        "Turner syndrome (TS) is a condition in phenotypic",
    ),
    T(
        TURNER,
        2,
        "order",
        "their families at this critical period is also imperative.",
        "paragraph order in the left column",
        "It is accepted that the diagnosis of TS is reached",
    ),
    T(
        TURNER,
        2,
        "order",
        "young person with TS for transition to adult care.",
        "paragraph before the next section heading",
        "Pubertal development in TS",
    ),
    T(
        TURNER,
        2,
        "order",
        "Pubertal development in TS",
        "heading before its paragraph",
        "TS is associated with hypergonadotropic",
    ),
    T(TURNER, 2, "absent", "L. Lucaccioni et al., 2015, Vol. 113", "running header"),
    T(
        TURNER,
        2,
        "absent",
        "Downloaded from https://academic.oup.com",
        "vertical download stamp in the right margin, not article text",
    ),
    T(
        OLMO,
        1,
        "present",
        "Accelerating the Science of Language Models",
        "title; the text layer's font maps letters to the wrong code points",
    ),
    T(OLMO, 1, "order", "Abstract", "abstract before the introduction", "1 Introduction"),
    T(MULTICOLUMN, 1, "present", "Two-Column Document with Lorem Ipsum", "title"),
    T(
        MULTICOLUMN,
        1,
        "order",
        "Abstract",
        "heading before its paragraph",
        "This is a sample document with two columns filled",
    ),
    T(
        MULTICOLUMN,
        1,
        "order",
        "Vivamus viverra fermentum felis. Donec nonummy",
        "left column ends before the right column starts",
        "pellentesque ante. Phasellus adipiscing",
    ),
    T(
        MULTICOLUMN,
        1,
        "order",
        "Pellentesque cursus luctus mauris.",
        "paragraph order in the left column",
        "Nulla malesuada porttitor diam.",
    ),
    T(
        MULTICOLUMN,
        1,
        "order",
        "tempus nibh sit amet nisl. Vivamus quis tortor vitae",
        "paragraph order in the right column",
        "Fusce mauris. Vestibulum luctus nibh at lectus.",
    ),
    T(
        CREATIVITY,
        1,
        "order",
        "in T, as measured by P, improves with experience E.",
        "left column ends before the right column starts",
        "This means that machine learning programs adjust internal",
    ),
    T(
        CREATIVITY,
        1,
        "order",
        "some starting points.",
        "abstract before the introduction",
        "I. Introduction",
    ),
    T(
        CREATIVITY,
        1,
        "order",
        "The field of machine learning is related to statistics.",
        "paragraph order in the right column",
        "A common misunderstanding of people who are not",
    ),
    T(CREATIVITY, 1, "absent", "arXiv:1601.03642v1", "vertical arXiv stamp in the left margin"),
    T(
        MASERS,
        2,
        "order",
        "presented in Sect. 4. Our main results are summarized in Sect. 5.",
        "introduction ends before section 2",
        "2. Observations and data reduction",
    ),
    T(
        MASERS,
        2,
        "order",
        "position switching mode, and the off position was",
        "left column ends before the right column starts",
        "away from the source. For observations made before 2021",
    ),
    T(
        MASERS,
        2,
        "order",
        "2. Observations and data reduction",
        "section order",
        "2.2. JVLA observations and data reduction",
    ),
    T(MASERS, 2, "absent", "A&A proofs: manuscript no. mainArxiv", "running header"),
    T(MASERS, 2, "absent", "Article number, page 2 of 10", "running footer"),
    # --- right to left ------------------------------------------------------------------------
    T(RTL_1, 1, "present", "تحسين", "first word of the Arabic title, logical order"),
    T(RTL_1, 1, "present", "البرمجة بلغة", "title words in logical (reading) order"),
    T(RTL_1, 1, "present", "تحليل البيانات الكبيرة", "a phrase of paragraph 2, logical order"),
    T(
        RTL_1,
        1,
        "present",
        "مكتبة pandas في Python",
        "Latin words inside Arabic text stay in place",
    ),
    T(RTL_1, 1, "order", "تعتبر البرمجة", "paragraph 1 before paragraph 2", "عندما يجتمع التفكير"),
    T(RTL_1, 1, "absent", "ةجمربلا", "the word البرمجة reversed (visual order)"),
    T(RTL_2, 1, "present", "فإن الحكومة المصرية", "first line of the Arabic body text"),
    T(RTL_3, 1, "present", "شرکت بورس", "Persian header, logical order"),
    T(
        RTL_3,
        1,
        "row",
        "مرجع صادرکننده استاندارد",
        "form row: label with its value",
        "سازمان ملی استاندارد",
    ),
    T(RTL_3, 1, "row", "شماره استاندارد ملی", "form row: label with its number", "20300"),
    T(HABIBI, 1, "present", "habibi", "the Latin word"),
    T(HABIBI, 1, "present", "حَبيبي", "the Arabic word in logical order"),
    T(HABIBI, 1, "absent", "يبيبَح", "the Arabic word reversed (visual order)"),
    # --- financial and statistical tables -----------------------------------------------------
    T(EDGAR, 1, "row", "Reign", "infobox row", "1 October 959 – 8 July 975"),
    T(EDGAR, 1, "row", "Predecessor", "infobox row", "Eadwig"),
    T(EDGAR, 1, "row", "Successor", "infobox row", "Edward the Martyr"),
    T(EDGAR, 1, "row", "Died", "infobox row", "8 July 975 (aged 31/32)"),
    T(EDGAR, 1, "row", "Burial", "infobox row", "Glastonbury Abbey"),
    T(EDGAR, 1, "row", "House", "infobox row", "Wessex"),
    T(EDGAR, 1, "row", "Mother", "infobox row", "Ælfgifu of Shaftesbury"),
    T(
        EDGAR,
        1,
        "order",
        "in recording the activities of the leaders of the church.",
        "article paragraphs in order",
        "Edgar mainly followed the political policies of his",
    ),
    T(
        EDGAR,
        1,
        "order",
        "the Unready. Later chroniclers presented Edgar's reign",
        "the last left-column line continues in the full-width line below",
        "as a golden age when England was free from external attacks",
    ),
    T(EDGAR, 1, "absent", "10/1/24, 3:42 PM", "browser print header"),
    T(
        EDGAR,
        1,
        "absent",
        "https://en.wikipedia.org/wiki/Edgar,_King_of_England",
        "browser print footer",
    ),
    T(HEALTH, 1, "present", "Public Health Outlay 2012-13 (Budget Estimates)", "table title"),
    T(HEALTH, 1, "row", "Andhra Pradesh", "state with its first value", "47,824,589"),
    T(HEALTH, 1, "row", "Goa", "state with its first value", "4,055,567"),
    T(HEALTH, 1, "row", "Karnataka", "state with its first value", "34,939,843"),
    T(HEALTH, 1, "row", "47,824,589", "neighbouring cells of one row", "9,967,837"),
    T(BUDGET, 1, "row", "MINISTRY OF COAL", "ministry with its plan revenue", "550.00"),
    T(BUDGET, 1, "row", "4. Atomic Energy", "demand with its plan revenue", "1483.00"),
    T(BUDGET, 1, "row", "13. Department of Posts", "demand with its plan revenue", "286.70"),
    T(BUDGET, 1, "row", "MINISTRY OF AGRICULTURE", "ministry with its values", "28130.48"),
    T(BIRDISLAND, 1, "row", "Dyna-Gro", "brand with its product", "S15RY53"),
    T(BIRDISLAND, 1, "row", "S15RY53", "product with its yield", "53.6"),
    T(
        SCI_TABLES,
        1,
        "order",
        "Certificate of Non-Use of Hazardous",
        "title before the table",
        "Environmental Category & Description",
    ),
    T(SCI_TABLES, 1, "row", "TSCA", "category beside its description", "Substance Control Act"),
    T(SCI_TABLES, 2, "row", "Cadmium (Cd)", "substance with its limit", "100 ppm (0.01 weight %)"),
    T(SCI_TABLES, 2, "row", "Mercury (Hg)", "substance with its limit", "1000 ppm"),
    T(SCI_TABLES, 2, "row", "Diisobutyl phthalate (DIBP)", "substance with its limit", "1000 ppm"),
    T(SCI_TABLES, 2, "row", "Bromine (Br)", "substance with its limit", "900 ppm"),
    T(SCI_TABLES, 2, "row", "bis(4-chlorophenyl)", "substance with its EC number", "201-247-9"),
    T(SCI_TABLES, 2, "row", "201-247-9", "EC number next to CAS number", "80-07-9"),
    T(
        SCI_TABLES,
        2,
        "order",
        "Appendix B | RoHS Directive (EU) 2015/863",
        "appendix order",
        "Appendix C | Halogen Free",
    ),
    # --- newspaper ------------------------------------------------------------------------------
    T(NEWSPAPER, 1, "present", "BULL DOG OF SEA, VISITS HAWAII NEI", "headline, second line"),
    T(NEWSPAPER, 1, "present", "UNITED STATES BATTLESHIP OREGON", "photo caption"),
    T(
        NEWSPAPER,
        1,
        "order",
        "S THE sun raise on Decoration",
        "first lines of the article column",
        "Day the famous United States",
    ),
    T(
        NEWSPAPER,
        1,
        "order",
        "At the residence of MRS. H. W. MIST,",
        "auction notice lines in order",
        "Nuuanu street, near Pauoa road",
    ),
    T(NEWSPAPER, 1, "present", "Honolulu, May 18th, 1901.", "date line of the notice"),
)
