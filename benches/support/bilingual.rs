//! One catalog in two languages, for P9 (docs/performance.md): the 45
//! tools of seven Chinese MCP servers (`corpora/realistic/chinese_mcp_servers.jsonl`),
//! each with its Chinese description and parameter descriptions and an
//! English translation of them, made into a catalog of any size by
//! serving each tool from numbered copies of its server. The Chinese and
//! the English catalogs have the same tools, names, keys and shapes; only
//! the descriptions' language differs. `#[path]`-included by the benches.

#![allow(dead_code)]

use disclose::{Approval, Effect, ToolDecl};
use serde_json::{Map, Value, json};

/// A tool: its server, raw name, Chinese and English descriptions, and
/// each parameter as (key, type, Chinese description, English one).
struct Tool {
    origin: &'static str,
    name: &'static str,
    zh: &'static str,
    en: &'static str,
    params: &'static [(&'static str, &'static str, &'static str, &'static str)],
}

const TOOLS: &[Tool] = &[
    Tool {
        origin: "12306",
        name: "get-current-date",
        zh: "获取当前日期（上海时区，UTC+8），格式为 yyyy-MM-dd。用于把用户说的“明天”“下周三”等相对日期换算成准确日期，再作为其他工具的日期参数。",
        en: "Get the current date in the Shanghai time zone (UTC+8) as yyyy-MM-dd. Use it to turn relative dates such as tomorrow or next Wednesday into exact dates for the other tools.",
        params: &[],
    },
    Tool {
        origin: "12306",
        name: "get-stations-code-in-city",
        zh: "通过中文城市名查询该城市所有火车站的名称及对应的 station_code，返回车站列表。",
        en: "Look up every railway station of a city by its Chinese name, with each station's station_code; returns a list of stations.",
        params: &[(
            "city",
            "string",
            "中文城市名，例如“北京”“上海”。",
            "The city's Chinese name, such as Beijing or Shanghai.",
        )],
    },
    Tool {
        origin: "12306",
        name: "get-station-code-of-citys",
        zh: "通过中文城市名查询代表该城市的 station_code。用户以城市作为出发地或到达地时，用它准备查询余票所需的车站代码。",
        en: "Look up the station_code that stands for a city. Use it to prepare the station codes a ticket search needs when the user names a city as departure or arrival.",
        params: &[(
            "citys",
            "string",
            "要查询的城市，多个城市用“|”分隔，例如“北京|上海”。",
            "Cities to look up, separated by |, such as Beijing|Shanghai.",
        )],
    },
    Tool {
        origin: "12306",
        name: "get-station-code-by-names",
        zh: "通过具体的中文车站名查询其 station_code 和车站名。用户给出具体车站（如“北京南”）作为出发地或到达地时使用。",
        en: "Look up a station's station_code by its exact Chinese name. Use it when the user names a specific station, such as Beijing South, as departure or arrival.",
        params: &[(
            "stationNames",
            "string",
            "具体的中文车站名，多个车站用“|”分隔，例如“北京南|上海虹桥”。",
            "Exact station names separated by |, such as Beijing South|Shanghai Hongqiao.",
        )],
    },
    Tool {
        origin: "12306",
        name: "get-station-by-telecode",
        zh: "通过车站的 station_telecode 查询车站详情，包括名称、拼音和所属城市。",
        en: "Look up a station's details by its station_telecode: name, pinyin and city.",
        params: &[(
            "stationTelecode",
            "string",
            "车站的 telecode，三个大写字母，例如“BJP”。",
            "The station's telecode, three capital letters such as BJP.",
        )],
    },
    Tool {
        origin: "12306",
        name: "get-tickets",
        zh: "查询12306余票信息：指定日期从出发站到到达站的车次、出发到达时间、历时以及各席别的余票和票价。",
        en: "Search 12306 for remaining tickets: the trains from a departure station to an arrival station on a date, their times and durations, and the seats left and fares of each class.",
        params: &[
            (
                "date",
                "string",
                "查询日期，格式为 yyyy-MM-dd。",
                "The date, as yyyy-MM-dd.",
            ),
            (
                "fromStation",
                "string",
                "出发地的 station_code，须先通过车站代码查询工具获得。",
                "The departure station_code, found first with a station code tool.",
            ),
            (
                "toStation",
                "string",
                "到达地的 station_code。",
                "The arrival station_code.",
            ),
            (
                "trainFilterFlags",
                "string",
                "车次筛选条件：G 高铁/城际，D 动车，Z 直达特快，T 特快，K 快速，可组合，例如“GD”。",
                "Train types: G high speed and intercity, D bullet, Z direct express, T express, K fast; combine them, such as GD.",
            ),
            (
                "sortFlag",
                "string",
                "排序方式：startTime 出发时间、arriveTime 抵达时间、duration 历时。",
                "Sort by startTime, arriveTime or duration.",
            ),
            (
                "sortReverse",
                "boolean",
                "是否倒序排列。",
                "Whether to sort in reverse.",
            ),
            (
                "limitedNum",
                "integer",
                "最多返回的车次数量，0 表示不限。",
                "The most trains to return, 0 for no limit.",
            ),
        ],
    },
    Tool {
        origin: "12306",
        name: "get-interline-tickets",
        zh: "查询12306中转余票信息：没有直达车时，给出经一个中转站换乘的方案，目前只返回前十条。",
        en: "Search 12306 for connecting tickets: when no train goes direct, the plans that change trains once at a transfer station; only the first ten for now.",
        params: &[
            (
                "date",
                "string",
                "查询日期，格式为 yyyy-MM-dd。",
                "The date, as yyyy-MM-dd.",
            ),
            (
                "fromStation",
                "string",
                "出发地的 station_code。",
                "The departure station_code.",
            ),
            (
                "toStation",
                "string",
                "到达地的 station_code。",
                "The arrival station_code.",
            ),
            (
                "middleStation",
                "string",
                "指定的中转站 station_code，可选。",
                "The transfer station's station_code, optional.",
            ),
            (
                "showWZ",
                "boolean",
                "是否显示无座车次。",
                "Whether to show trains with standing tickets only.",
            ),
            (
                "trainFilterFlags",
                "string",
                "车次筛选条件，同余票查询。",
                "Train types, as for the ticket search.",
            ),
        ],
    },
    Tool {
        origin: "12306",
        name: "get-train-route-stations",
        zh: "查询某一车次在指定区间内的经停站，以及每站的到站时间、出发时间和停留时间。",
        en: "List the stops of a train between two stations, with each stop's arrival time, departure time and stopover.",
        params: &[
            (
                "trainCode",
                "string",
                "车次号，例如“G1033”。",
                "The train number, such as G1033.",
            ),
            (
                "departDate",
                "string",
                "出发日期，格式为 yyyy-MM-dd。",
                "The departure date, as yyyy-MM-dd.",
            ),
            (
                "fromStationTelecode",
                "string",
                "该车次出发站的 telecode。",
                "The telecode of the train's departure station.",
            ),
            (
                "toStationTelecode",
                "string",
                "该车次到达站的 telecode。",
                "The telecode of the train's arrival station.",
            ),
        ],
    },
    Tool {
        origin: "amap",
        name: "maps_regeocode",
        zh: "将一个高德经纬度坐标转换为行政区划地址信息（省、市、区、街道）。",
        en: "Convert an AMap longitude and latitude into an administrative address (province, city, district, street).",
        params: &[(
            "location",
            "string",
            "经纬度，格式为“经度,纬度”。",
            "Longitude and latitude, as longitude,latitude.",
        )],
    },
    Tool {
        origin: "amap",
        name: "maps_geo",
        zh: "将详细的结构化地址转换为经纬度坐标，也能解析地标性名胜景区和建筑物名称。",
        en: "Convert a detailed structured address into longitude and latitude; also resolves landmarks, scenic spots and building names.",
        params: &[
            (
                "address",
                "string",
                "待解析的结构化地址信息。",
                "The structured address to resolve.",
            ),
            (
                "city",
                "string",
                "指定查询的城市，可选。",
                "The city to search in, optional.",
            ),
        ],
    },
    Tool {
        origin: "amap",
        name: "maps_ip_location",
        zh: "根据用户输入的 IP 地址，定位该 IP 所在的省份和城市。",
        en: "Locate the province and city of an IP address the user gives.",
        params: &[("ip", "string", "IP 地址。", "The IP address.")],
    },
    Tool {
        origin: "amap",
        name: "maps_weather",
        zh: "根据城市名称或者标准 adcode 查询指定城市的实时天气和未来几天的天气预报。",
        en: "Get the current weather and the forecast of the next days for a city, by its name or its standard adcode.",
        params: &[(
            "city",
            "string",
            "城市名称或者 adcode。",
            "The city's name or adcode.",
        )],
    },
    Tool {
        origin: "amap",
        name: "maps_search_detail",
        zh: "查询关键词搜索或周边搜索得到的 POI ID 的详细信息，例如地址、电话、营业时间和评分。",
        en: "Get the details of a POI ID found by a keyword or nearby search, such as its address, phone, opening hours and rating.",
        params: &[(
            "id",
            "string",
            "关键词搜索或者周边搜索获取到的 POI ID。",
            "The POI ID from a keyword or nearby search.",
        )],
    },
    Tool {
        origin: "amap",
        name: "maps_bicycling",
        zh: "骑行路径规划：规划骑行通勤方案，会考虑天桥、单行线和封路等情况，最远支持 500 公里。",
        en: "Plan a cycling route for a commute, taking bridges, one-way streets and closed roads into account, up to 500 km.",
        params: &[
            (
                "origin",
                "string",
                "出发点经纬度，格式为“经度,纬度”。",
                "The start's longitude and latitude, as longitude,latitude.",
            ),
            (
                "destination",
                "string",
                "目的地经纬度，格式为“经度,纬度”。",
                "The destination's longitude and latitude, as longitude,latitude.",
            ),
        ],
    },
    Tool {
        origin: "amap",
        name: "maps_direction_walking",
        zh: "步行路径规划：根据起点和终点经纬度规划 100 公里以内的步行方案，并返回方案数据。",
        en: "Plan a walking route of up to 100 km from a start to a destination by their coordinates, and return the plan.",
        params: &[
            (
                "origin",
                "string",
                "出发点经纬度，格式为“经度,纬度”。",
                "The start's longitude and latitude, as longitude,latitude.",
            ),
            (
                "destination",
                "string",
                "目的地经纬度，格式为“经度,纬度”。",
                "The destination's longitude and latitude, as longitude,latitude.",
            ),
        ],
    },
    Tool {
        origin: "amap",
        name: "maps_direction_driving",
        zh: "驾车路径规划：根据起点和终点经纬度规划小客车、轿车的出行方案，返回距离、时长和路线。",
        en: "Plan a driving route for a car from a start to a destination by their coordinates, with distance, duration and the route.",
        params: &[
            (
                "origin",
                "string",
                "出发点经纬度，格式为“经度,纬度”。",
                "The start's longitude and latitude, as longitude,latitude.",
            ),
            (
                "destination",
                "string",
                "目的地经纬度，格式为“经度,纬度”。",
                "The destination's longitude and latitude, as longitude,latitude.",
            ),
        ],
    },
    Tool {
        origin: "amap",
        name: "maps_direction_transit_integrated",
        zh: "公交路径规划：综合火车、公交、地铁等多种公共交通方式，规划从起点到终点的换乘方案；跨城时须提供起点城市和终点城市。",
        en: "Plan a public transport trip combining trains, buses and the subway from a start to a destination; across cities, give both the start and the end city.",
        params: &[
            (
                "origin",
                "string",
                "出发点经纬度，格式为“经度,纬度”。",
                "The start's longitude and latitude, as longitude,latitude.",
            ),
            (
                "destination",
                "string",
                "目的地经纬度，格式为“经度,纬度”。",
                "The destination's longitude and latitude, as longitude,latitude.",
            ),
            (
                "city",
                "string",
                "公共交通规划的起点城市。",
                "The city the trip starts in.",
            ),
            (
                "cityd",
                "string",
                "公共交通规划的终点城市。",
                "The city the trip ends in.",
            ),
        ],
    },
    Tool {
        origin: "amap",
        name: "maps_distance",
        zh: "距离测量：测量两个经纬度坐标之间的距离，支持驾车、步行以及球面距离。",
        en: "Measure the distance between coordinates, by car, on foot or in a straight line.",
        params: &[
            (
                "origins",
                "string",
                "起点经纬度，可以传多个，用竖线分隔。",
                "Start coordinates; several may be given, separated by a vertical bar.",
            ),
            (
                "destination",
                "string",
                "终点经纬度，格式为“经度,纬度”。",
                "The end's longitude and latitude, as longitude,latitude.",
            ),
            (
                "type",
                "string",
                "距离测量类型：1 驾车距离，0 直线距离，3 步行距离。",
                "The kind of distance: 1 driving, 0 straight line, 3 walking.",
            ),
        ],
    },
    Tool {
        origin: "amap",
        name: "maps_text_search",
        zh: "关键词搜索：根据用户传入的关键词，搜索出相关的 POI（餐厅、酒店、景点等）。",
        en: "Search for POIs such as restaurants, hotels and sights by the keywords the user gives.",
        params: &[
            ("keywords", "string", "搜索关键词。", "The search keywords."),
            ("city", "string", "查询城市。", "The city to search in."),
            (
                "types",
                "string",
                "POI 类型，比如加油站。",
                "The POI type, such as gas station.",
            ),
        ],
    },
    Tool {
        origin: "amap",
        name: "maps_around_search",
        zh: "周边搜索：根据用户传入的关键词以及中心点坐标，搜索出半径范围内的 POI。",
        en: "Search for POIs within a radius of a center point, by keywords.",
        params: &[
            ("keywords", "string", "搜索关键词。", "The search keywords."),
            (
                "location",
                "string",
                "中心点经纬度。",
                "The center's longitude and latitude.",
            ),
            (
                "radius",
                "string",
                "搜索半径，单位米。",
                "The search radius in meters.",
            ),
        ],
    },
    Tool {
        origin: "howtocook",
        name: "mcp_howtocook_getAllRecipes",
        zh: "获取所有菜谱的名称和简介。",
        en: "Get the names and summaries of every recipe.",
        params: &[],
    },
    Tool {
        origin: "howtocook",
        name: "mcp_howtocook_getRecipesByCategory",
        zh: "根据分类查询菜谱，可选分类有：水产、早餐、调味料、甜品、饮品、荤菜、半成品加工、汤、主食、素菜。",
        en: "Get the recipes of a category: seafood, breakfast, condiments, desserts, drinks, meat dishes, semi-prepared, soups, staples or vegetable dishes.",
        params: &[(
            "category",
            "string",
            "菜谱分类名称，如水产、早餐、荤菜、主食等。",
            "The recipe category, such as seafood, breakfast, meat dishes or staples.",
        )],
    },
    Tool {
        origin: "howtocook",
        name: "mcp_howtocook_getRecipeById",
        zh: "根据菜谱名称或 ID 查询指定菜谱的完整做法，包括所需食材、用量和操作步骤。",
        en: "Get a recipe's full method by its name or ID: the ingredients, their amounts and the steps.",
        params: &[(
            "query",
            "string",
            "菜谱名称或 ID，支持模糊匹配菜谱名称。",
            "The recipe's name or ID; names match loosely.",
        )],
    },
    Tool {
        origin: "howtocook",
        name: "mcp_howtocook_recommendMeals",
        zh: "根据用户的忌口、过敏原和用餐人数智能推荐菜谱，制定一周的膳食计划以及大致的购物清单。",
        en: "Recommend recipes for the user's dislikes, allergies and number of diners, and make a week's meal plan with a rough shopping list.",
        params: &[
            (
                "allergies",
                "array",
                "过敏原列表，如“大蒜”“虾”。",
                "Allergens, such as garlic or shrimp.",
            ),
            (
                "avoidItems",
                "array",
                "忌口食材列表，如“葱”“姜”。",
                "Ingredients to avoid, such as scallion or ginger.",
            ),
            (
                "peopleCount",
                "integer",
                "用餐人数，1 到 10。",
                "The number of diners, 1 to 10.",
            ),
        ],
    },
    Tool {
        origin: "howtocook",
        name: "mcp_howtocook_whatToEat",
        zh: "不知道吃什么？根据用餐人数直接推荐适合的菜品组合，荤素搭配。",
        en: "Not sure what to eat? Recommend a balanced combination of dishes for the number of diners.",
        params: &[(
            "peopleCount",
            "integer",
            "用餐人数，1 到 10。",
            "The number of diners, 1 to 10.",
        )],
    },
    Tool {
        origin: "bing-cn",
        name: "bing_search",
        zh: "使用必应中文搜索指定的关键词，返回搜索结果列表，每条包括标题、链接、摘要和结果 ID。",
        en: "Search Bing China for keywords and return a list of results, each with a title, link, summary and result ID.",
        params: &[
            ("query", "string", "搜索关键词。", "The search keywords."),
            (
                "num_results",
                "integer",
                "返回的结果数量，默认 5。",
                "How many results to return, 5 by default.",
            ),
        ],
    },
    Tool {
        origin: "bing-cn",
        name: "fetch_webpage",
        zh: "根据搜索结果的 ID 抓取对应网页的正文内容。",
        en: "Fetch the text of the web page a search result ID points to.",
        params: &[(
            "result_id",
            "string",
            "bing_search 返回的结果 ID。",
            "The result ID bing_search returned.",
        )],
    },
    Tool {
        origin: "trends-hub",
        name: "get-weibo-trending",
        zh: "获取微博热搜榜，包含时事热点、社会现象、娱乐新闻、明星动态及网络热议话题的实时热门中文资讯。",
        en: "Get Weibo's hot search list: the trending Chinese news of current events, society, entertainment, celebrities and online debates.",
        params: &[],
    },
    Tool {
        origin: "trends-hub",
        name: "get-zhihu-trending",
        zh: "获取知乎热榜，包含时事热点、社会话题、科技动态和娱乐八卦等多领域的热门问答与讨论。",
        en: "Get Zhihu's hot list: the popular questions and discussions of current events, society, technology and entertainment.",
        params: &[(
            "limit",
            "integer",
            "返回条数。",
            "How many items to return.",
        )],
    },
    Tool {
        origin: "trends-hub",
        name: "get-douyin-trending",
        zh: "获取抖音热搜榜单，展示当下最热门的社会话题、娱乐事件、网络热点和流行趋势。",
        en: "Get Douyin's hot search list: the hottest social topics, entertainment events, online buzz and trends right now.",
        params: &[],
    },
    Tool {
        origin: "trends-hub",
        name: "get-toutiao-trending",
        zh: "获取今日头条热榜，包含时政要闻、社会事件、国际新闻、科技发展及娱乐八卦等多领域的热门中文资讯。",
        en: "Get Toutiao's hot list: trending Chinese news of politics, society, world news, technology and entertainment.",
        params: &[],
    },
    Tool {
        origin: "trends-hub",
        name: "get-bilibili-rank",
        zh: "获取哔哩哔哩视频排行榜，包含播放量、弹幕数和投币数最高的热门视频。",
        en: "Get bilibili's video ranking: the popular videos with the most plays, comments and coins.",
        params: &[(
            "type",
            "string",
            "排行榜分区：全站、动画、音乐、游戏、知识、科技、美食等。",
            "The ranking's section: all, animation, music, games, knowledge, technology, food and more.",
        )],
    },
    Tool {
        origin: "trends-hub",
        name: "get-douban-rank",
        zh: "获取豆瓣实时热门榜单，提供当前热门的图书、电影、电视剧和综艺作品及其评分。",
        en: "Get Douban's live popularity lists: the books, movies, TV series and variety shows popular now, with their ratings.",
        params: &[(
            "type",
            "string",
            "榜单类型：subject 图书、电影、电视剧、综艺，movie 电影，tv 电视剧。",
            "The list: subject for books, movies, series and shows, movie, or tv.",
        )],
    },
    Tool {
        origin: "trends-hub",
        name: "get-36kr-trending",
        zh: "获取 36 氪热榜，提供创业、商业、科技领域的热门资讯，包括投融资动态和新兴产业分析。",
        en: "Get 36Kr's hot list: trending news of startups, business and technology, with funding news and analysis of new industries.",
        params: &[(
            "type",
            "string",
            "榜单类型：hot 人气榜，video 视频榜，comment 热议榜，collect 收藏榜。",
            "The list: hot, video, comment or collect.",
        )],
    },
    Tool {
        origin: "trends-hub",
        name: "get-juejin-article-rank",
        zh: "获取掘金文章榜，包含前端开发、后端技术、人工智能和移动开发等技术领域的高质量中文文章。",
        en: "Get Juejin's article ranking: high quality Chinese articles on frontend, backend, artificial intelligence and mobile development.",
        params: &[(
            "category_id",
            "string",
            "文章分类 ID。",
            "The article category ID.",
        )],
    },
    Tool {
        origin: "trends-hub",
        name: "get-smzdm-rank",
        zh: "获取什么值得买热门，包含商品推荐、优惠信息、购物攻略和产品评测等消费类热门内容。",
        en: "Get SMZDM's popular list: product picks, deals, shopping guides and reviews.",
        params: &[(
            "unit",
            "integer",
            "统计周期：1 今日热门，7 周热门，30 月热门。",
            "The period: 1 today, 7 this week, 30 this month.",
        )],
    },
    Tool {
        origin: "trends-hub",
        name: "get-weread-rank",
        zh: "获取微信读书排行榜，包含热门小说、畅销书籍和新书推荐等各类图书榜单。",
        en: "Get WeRead's rankings: popular novels, best sellers and new book picks.",
        params: &[(
            "category",
            "string",
            "排行榜分区：rising 飙升榜，hot_search 热搜榜，newbook 新书榜，general_novel_rising 小说榜。",
            "The ranking: rising, hot_search, newbook or general_novel_rising.",
        )],
    },
    Tool {
        origin: "bilibili",
        name: "general_search",
        zh: "在哔哩哔哩（B站）按关键词综合搜索视频、番剧、专栏和用户等内容。",
        en: "Search bilibili for videos, anime, articles and users by keywords.",
        params: &[("keyword", "string", "搜索关键词。", "The search keywords.")],
    },
    Tool {
        origin: "bilibili",
        name: "search_user",
        zh: "在B站按关键词搜索 UP 主，按粉丝数排序，返回用户名、UID、粉丝数和简介。",
        en: "Search bilibili for uploaders by keywords, by follower count, with name, UID, followers and bio.",
        params: &[
            (
                "keyword",
                "string",
                "用户名关键词。",
                "The user name keywords.",
            ),
            (
                "page",
                "integer",
                "页码，默认 1。",
                "The page, 1 by default.",
            ),
        ],
    },
    Tool {
        origin: "bilibili",
        name: "get_video_info",
        zh: "根据 BV 号获取B站视频的详细信息：标题、简介、UP 主、时长、播放量、点赞、投币、收藏和分享数。",
        en: "Get a bilibili video's details by its BV ID: title, summary, uploader, duration, plays, likes, coins, favorites and shares.",
        params: &[(
            "bvid",
            "string",
            "视频的 BV 号，例如“BV1xx411c7mD”。",
            "The video's BV ID, such as BV1xx411c7mD.",
        )],
    },
    Tool {
        origin: "bilibili",
        name: "get_video_subtitle",
        zh: "获取B站视频的字幕文本（CC 字幕或 AI 字幕），可用于总结视频内容。",
        en: "Get a bilibili video's subtitle text (CC or AI subtitles), to summarize the video.",
        params: &[
            ("bvid", "string", "视频的 BV 号。", "The video's BV ID."),
            (
                "lang",
                "string",
                "字幕语言，默认中文。",
                "The subtitle language, Chinese by default.",
            ),
        ],
    },
    Tool {
        origin: "weread",
        name: "get_bookshelf",
        zh: "获取用户微信读书书架上的所有书籍，包括书名、作者、阅读进度和最近阅读时间。",
        en: "Get every book on the user's WeRead bookshelf, with title, author, reading progress and last read time.",
        params: &[],
    },
    Tool {
        origin: "weread",
        name: "search_books",
        zh: "在微信读书的书架中按书名、作者或分类搜索书籍。",
        en: "Search the WeRead bookshelf by title, author or category.",
        params: &[
            (
                "keyword",
                "string",
                "书名、作者或分类关键词。",
                "Title, author or category keywords.",
            ),
            (
                "exact_match",
                "boolean",
                "是否精确匹配。",
                "Whether to match exactly.",
            ),
            (
                "include_details",
                "boolean",
                "是否返回书籍的详细信息。",
                "Whether to return each book's details.",
            ),
            (
                "max_results",
                "integer",
                "最多返回的书籍数量。",
                "The most books to return.",
            ),
        ],
    },
    Tool {
        origin: "weread",
        name: "get_book_notes_and_highlights",
        zh: "获取某本书的全部划线和读书笔记，按章节组织。",
        en: "Get every highlight and note of a book, organized by chapter.",
        params: &[
            ("book_id", "string", "书籍 ID。", "The book ID."),
            (
                "include_chapters",
                "boolean",
                "是否按章节分组。",
                "Whether to group by chapter.",
            ),
            (
                "organize_by_chapter",
                "boolean",
                "是否按章节顺序排列。",
                "Whether to order by chapter.",
            ),
            (
                "highlight_style",
                "integer",
                "划线样式筛选，可选。",
                "Filter by highlight style, optional.",
            ),
        ],
    },
    Tool {
        origin: "weread",
        name: "get_book_best_reviews",
        zh: "获取某本书的热门书评，包括评分、评论内容和点赞数。",
        en: "Get a book's popular reviews, with ratings, text and likes.",
        params: &[
            ("book_id", "string", "书籍 ID。", "The book ID."),
            (
                "count",
                "integer",
                "返回的书评数量，默认 10。",
                "How many reviews to return, 10 by default.",
            ),
            (
                "max_idx",
                "integer",
                "分页游标，默认 0。",
                "The page cursor, 0 by default.",
            ),
        ],
    },
];

/// Which language a catalog is described in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    Chinese,
    English,
}

/// `n` tools: copy `k` of each server is origin `<server>-<k>` (so every
/// minted name differs), the tools taken in order, copy after copy.
pub fn decls(n: usize, language: Language) -> Vec<ToolDecl> {
    (0..n)
        .map(|at| {
            let tool = &TOOLS[at % TOOLS.len()];
            let copy = at / TOOLS.len();
            let text = |zh: &str, en: &str| match language {
                Language::Chinese => zh.to_string(),
                Language::English => en.to_string(),
            };
            let mut properties = Map::new();
            for &(key, kind, zh, en) in tool.params {
                let schema = match kind {
                    "array" => json!({"type": "array", "items": {"type": "string"}, "description": text(zh, en)}),
                    kind => json!({"type": kind, "description": text(zh, en)}),
                };
                properties.insert(key.to_string(), schema);
            }
            ToolDecl {
                origin: format!("{}-{copy}", tool.origin),
                name: tool.name.to_string(),
                description: text(tool.zh, tool.en),
                input_schema: json!({"type": "object", "properties": Value::Object(properties)}).into(),
                effect: Effect::Read,
                approval: Approval::Never,
            }
        })
        .collect()
}

/// Eight tasks, asked in the catalog's language: each Chinese query and
/// its English translation.
pub fn queries(language: Language) -> [&'static str; 8] {
    match language {
        Language::Chinese => [
            "明天从北京到上海的高铁票",
            "这个坐标是哪里",
            "从公司开车去机场要多久",
            "红烧肉怎么做",
            "今天微博热搜是什么",
            "在网上搜一下最新的新闻",
            "这个视频有多少播放量",
            "我的书架上有哪些书",
        ],
        Language::English => [
            "high speed train tickets from Beijing to Shanghai tomorrow",
            "where is this coordinate",
            "how long is the drive from the office to the airport",
            "how to cook braised pork",
            "what is trending on Weibo today",
            "search the web for the latest news",
            "how many plays does this video have",
            "which books are on my bookshelf",
        ],
    }
}
