/**
 * The emoji the picker offers, by category, each with a few words to find it by in English, Portuguese and Spanish
 * (`emoji english words|palavras em português|palabras en español`, one a line). Loaded only when the picker opens.
 */

export const EMOJI_CATEGORIES = [
  "smileys",
  "people",
  "nature",
  "food",
  "activities",
  "travel",
  "objects",
  "symbols",
] as const;
export type EmojiCategory = (typeof EMOJI_CATEGORIES)[number];

export interface EmojiEntry {
  emoji: string;
  category: EmojiCategory;
  /** The words of every language, lower case and without accents, to match a search against. */
  words: string;
}

const TABLE: Record<EmojiCategory, string> = {
  smileys: `
😀 grinning smile happy|sorriso feliz|sonrisa feliz
😃 smiley happy|sorridente feliz|sonriente feliz
😄 smile laugh|sorriso risada|sonrisa risa
😁 grin beaming|sorrisão dentes|sonrisa dientes
😆 laughing|rindo gargalhada|riendo carcajada
😅 sweat smile relief|suor alívio|sudor alivio
😂 tears of joy laugh lol|chorando de rir kkk|llorando de risa jaja
🤣 rolling laughing rofl|rolando de rir|revolcarse de risa
🥲 smile tear|sorriso lágrima|sonrisa lágrima
☺️ smiling blush|sorridente corado|sonriente sonrojado
😊 blush happy smile|corado feliz|sonrojado feliz
😇 angel innocent halo|anjo inocente|ángel inocente
🙂 slight smile|sorriso leve|sonrisa leve
🙃 upside down|de cabeça para baixo|al revés
😉 wink|piscadela|guiño
😌 relieved calm|aliviado calmo|aliviado tranquilo
😍 heart eyes love|olhos de coração apaixonado|ojos de corazón enamorado
🥰 hearts love adore|corações amor|corazones amor
😘 kiss blow|beijo mandando|beso lanzando
😗 kissing|beijando|besando
😙 kissing smile|beijo sorriso|beso sonrisa
😚 kissing closed eyes|beijo olhos fechados|beso ojos cerrados
😋 yum tasty|delicioso gostoso|delicioso sabroso
😛 tongue|língua|lengua
😝 tongue squint|língua olhos fechados|lengua ojos cerrados
😜 tongue wink crazy|língua piscando|lengua guiño
🤪 zany crazy|maluco doido|loco
🤨 raised eyebrow doubt|sobrancelha levantada desconfiado|ceja levantada sospecha
🧐 monocle inspect|monóculo investigando|monóculo inspeccionar
🤓 nerd geek|nerd|nerd
😎 cool sunglasses|óculos escuros legal|gafas de sol genial
🥸 disguise|disfarce|disfraz
🤩 star struck wow|deslumbrado estrelas|deslumbrado estrellas
🥳 party celebrate|festa comemorar|fiesta celebrar
😏 smirk|sorriso malicioso|sonrisa pícara
😒 unamused|entediado desinteressado|aburrido
😞 disappointed|decepcionado|decepcionado
😔 pensive sad|pensativo triste|pensativo triste
😟 worried|preocupado|preocupado
😕 confused|confuso|confundido
🙁 frown sad|triste carrancudo|triste ceño
☹️ frowning|franzido triste|ceño fruncido
😣 persevere|perseverante|perseverante
😖 confounded|atordoado|aturdido
😫 tired|cansado|cansado
😩 weary|exausto|agotado
🥺 pleading puppy eyes please|suplicante por favor|suplicante por favor
😢 cry tear|chorando lágrima|llorando lágrima
😭 sob crying loud|chorando muito|llorando mucho
😤 triumph huff|bufando|resoplando
😠 angry|bravo zangado|enojado
😡 rage pouting angry|furioso raiva|furioso rabia
🤬 cursing swearing|xingando palavrão|maldiciendo
🤯 mind blown|cabeça explodindo|cabeza explotando
😳 flushed embarrassed|envergonhado corado|avergonzado
🥵 hot|calor quente|calor
🥶 cold freezing|frio congelando|frío helado
😱 scream fear|grito medo|grito miedo
😨 fearful|com medo|asustado
😰 anxious sweat|ansioso|ansioso
😥 sad relieved|triste aliviado|triste aliviado
😓 downcast sweat|suor frio|sudor frío
🤗 hug hugging|abraço|abrazo
🤔 thinking hmm|pensando|pensando
🫡 salute|continência saudação|saludo militar
🤭 hand over mouth oops|mão na boca ops|mano en la boca
🤫 shush quiet secret|silêncio segredo|silencio secreto
🤥 lying|mentiroso|mentiroso
😶 no mouth speechless|sem boca sem palavras|sin boca sin palabras
😐 neutral|neutro|neutral
😑 expressionless|sem expressão|inexpresivo
😬 grimace awkward|careta constrangido|mueca incómodo
🙄 eye roll|revirando os olhos|ojos en blanco
😯 hushed surprised|surpreso|sorprendido
😦 frowning open mouth|boca aberta|boca abierta
😮 open mouth wow|boca aberta uau|boca abierta guau
😲 astonished|espantado|asombrado
🥱 yawn bored|bocejo tédio|bostezo aburrido
😴 sleeping zzz|dormindo sono|durmiendo sueño
🤤 drooling|babando|babeando
😪 sleepy|sonolento|somnoliento
😵 dizzy|tonto zonzo|mareado
🤐 zipper mouth|boca fechada zíper|boca cerrada
🥴 woozy|grogue|grogui
🤢 nauseated sick|enjoado|con náuseas
🤮 vomit|vomitando|vomitando
🤧 sneeze|espirrando|estornudo
😷 mask sick|máscara doente|mascarilla enfermo
🤒 thermometer fever|febre termômetro|fiebre termómetro
🤕 bandage hurt|machucado curativo|herido vendaje
🤑 money mouth|boca de dinheiro|boca de dinero
🤠 cowboy|caubói|vaquero
😈 devil smiling|diabinho|diablillo
👿 imp angry devil|diabo bravo|diablo enojado
💀 skull dead|caveira morto|calavera muerto
💩 poop|cocô|caca
🤡 clown|palhaço|payaso
👻 ghost|fantasma|fantasma
👽 alien|alienígena|extraterrestre
🤖 robot bot|robô|robot
😺 cat smile|gato sorrindo|gato sonriendo
😹 cat joy|gato rindo|gato riendo
😻 cat heart eyes|gato apaixonado|gato enamorado
🙈 see no evil monkey|macaco não vejo|mono no ver
🙉 hear no evil monkey|macaco não ouço|mono no oír
🙊 speak no evil monkey|macaco não falo|mono no hablar
`,
  people: `
👍 thumbs up like ok yes|joinha positivo sim|pulgar arriba me gusta sí
👎 thumbs down dislike no|negativo não curti|pulgar abajo no me gusta
👌 ok perfect|ok perfeito|ok perfecto
🤌 pinched fingers|dedos juntos|dedos juntos
🤏 pinching small|pouquinho|pellizco poquito
✌️ victory peace|vitória paz|victoria paz
🤞 crossed fingers luck|dedos cruzados sorte|dedos cruzados suerte
🤟 love you gesture|te amo gesto|te quiero gesto
🤘 rock horns|rock chifres|rock cuernos
🤙 call me hang loose|me liga|llámame
👈 point left|apontando esquerda|señalar izquierda
👉 point right|apontando direita|señalar derecha
👆 point up|apontando cima|señalar arriba
👇 point down|apontando baixo|señalar abajo
☝️ index up|indicador cima|índice arriba
✋ raised hand stop|mão levantada pare|mano levantada alto
🤚 raised back of hand|dorso da mão|dorso de la mano
🖐️ hand splayed|mão aberta|mano abierta
🖖 vulcan salute|saudação vulcana|saludo vulcano
👋 wave hello bye|tchau oi acenando|hola adiós saludar
👏 clap applause|palmas aplausos|aplausos palmas
🙌 raising hands hooray|mãos levantadas viva|manos arriba hurra
👐 open hands|mãos abertas|manos abiertas
🤲 palms up|palmas para cima|palmas arriba
🤝 handshake deal|aperto de mão acordo|apretón de manos trato
🙏 pray please thanks|por favor obrigado oração|por favor gracias rezar
✍️ writing|escrevendo|escribiendo
💅 nail polish|esmalte unhas|esmalte uñas
💪 muscle strong|músculo forte|músculo fuerte
🦾 mechanical arm|braço mecânico|brazo mecánico
👀 eyes look|olhos olhando|ojos mirando
👁️ eye|olho|ojo
👂 ear|orelha ouvido|oreja
👃 nose|nariz|nariz
🧠 brain|cérebro|cerebro
👄 mouth|boca|boca
💋 kiss mark|marca de beijo|marca de beso
👶 baby|bebê|bebé
🧒 child|criança|niño
👦 boy|menino|niño chico
👧 girl|menina|niña chica
🧑 person|pessoa|persona
👨 man|homem|hombre
👩 woman|mulher|mujer
🧓 older person|idoso|anciano
👴 old man|vovô idoso|abuelo
👵 old woman|vovó idosa|abuela
🙋 raising hand|levantando a mão|levantando la mano
🙅 no gesture|gesto de não|gesto de no
🙆 ok gesture|gesto de ok|gesto de ok
💁 tipping hand info|atendente informação|información
🤷 shrug|dar de ombros|encogerse de hombros
🤦 facepalm|mão na testa|palmada en la cara
🙇 bow sorry|reverência desculpa|reverencia perdón
👮 police officer|policial|policía
👷 construction worker|pedreiro obras|obrero
💂 guard|guarda|guardia
🕵️ detective|detetive|detective
👩‍💻 technologist computer|programadora computador|programadora computadora
👨‍🍳 cook chef|cozinheiro chef|cocinero chef
👩‍⚕️ health worker doctor|médica saúde|doctora salud
🧑‍🔧 mechanic|mecânico|mecánico
🧑‍🏫 teacher|professor|profesor
🤵 tuxedo groom|noivo smoking|novio esmoquin
👰 bride veil|noiva véu|novia velo
🤰 pregnant|grávida|embarazada
🎅 santa claus|papai noel|papá noel
🚶 walking|andando|caminando
🏃 running|correndo|corriendo
💃 dancing woman|dançando|bailando
🕺 dancing man|dançarino|bailarín
👯 party people|festa amigas|fiesta amigas
👫 couple|casal|pareja
👪 family|família|familia
🗣️ speaking head|falando|hablando
👤 silhouette contact|silhueta contato|silueta contacto
👥 silhouettes group|grupo pessoas|grupo personas
`,
  nature: `
🐶 dog puppy|cachorro|perro
🐱 cat|gato|gato
🐭 mouse|rato|ratón
🐹 hamster|hamster|hámster
🐰 rabbit bunny|coelho|conejo
🦊 fox|raposa|zorro
🐻 bear|urso|oso
🐼 panda|panda|panda
🐨 koala|coala|koala
🐯 tiger|tigre|tigre
🦁 lion|leão|león
🐮 cow|vaca|vaca
🐷 pig|porco|cerdo
🐸 frog|sapo|rana
🐵 monkey|macaco|mono
🐔 chicken|galinha|gallina
🐧 penguin|pinguim|pingüino
🐦 bird|pássaro|pájaro
🐤 chick|pintinho|pollito
🦆 duck|pato|pato
🦅 eagle|águia|águila
🦉 owl|coruja|búho
🐴 horse|cavalo|caballo
🦄 unicorn|unicórnio|unicornio
🐝 bee|abelha|abeja
🦋 butterfly|borboleta|mariposa
🐌 snail slow|caracol lento|caracol lento
🐞 ladybug|joaninha|mariquita
🐢 turtle slow|tartaruga lenta|tortuga lenta
🐍 snake|cobra|serpiente
🐙 octopus|polvo|pulpo
🐠 fish tropical|peixe|pez
🐬 dolphin|golfinho|delfín
🐳 whale|baleia|ballena
🦈 shark|tubarão|tiburón
🐘 elephant|elefante|elefante
🦒 giraffe|girafa|jirafa
🐾 paw prints|pegadas patas|huellas patas
🌵 cactus|cacto|cactus
🎄 christmas tree|árvore de natal|árbol de navidad
🌲 evergreen tree|pinheiro|pino
🌳 tree|árvore|árbol
🌴 palm tree beach|coqueiro palmeira|palmera
🌱 seedling plant|broto planta|brote planta
🌿 herb|erva|hierba
🍀 four leaf clover luck|trevo sorte|trébol suerte
🍁 maple leaf|folha de bordo|hoja de arce
🍂 fallen leaves autumn|folhas outono|hojas otoño
💐 bouquet flowers|buquê flores|ramo flores
🌷 tulip|tulipa|tulipán
🌹 rose|rosa|rosa
🌺 hibiscus|hibisco|hibisco
🌻 sunflower|girassol|girasol
🌼 blossom flower|flor|flor
🌸 cherry blossom|flor de cerejeira|flor de cerezo
🌞 sun face|sol|sol
☀️ sun sunny|sol ensolarado|sol soleado
⛅ sun behind cloud|sol entre nuvens|sol entre nubes
☁️ cloud|nuvem|nube
🌧️ rain|chuva|lluvia
⛈️ storm thunder|tempestade trovão|tormenta trueno
❄️ snowflake cold|floco de neve frio|copo de nieve frío
🌈 rainbow|arco-íris|arcoíris
🌙 moon night|lua noite|luna noche
⭐ star|estrela|estrella
🌟 glowing star|estrela brilhante|estrella brillante
⚡ lightning high voltage|raio energia|rayo energía
🔥 fire hot lit|fogo quente|fuego caliente
💧 droplet water|gota água|gota agua
🌊 wave ocean sea|onda mar|ola mar
🌍 earth globe world|terra mundo|tierra mundo
`,
  food: `
🍏 green apple|maçã verde|manzana verde
🍎 apple red|maçã|manzana
🍐 pear|pera|pera
🍊 orange tangerine|laranja tangerina|naranja mandarina
🍋 lemon|limão|limón
🍌 banana|banana|plátano banana
🍉 watermelon|melancia|sandía
🍇 grapes|uva|uvas
🍓 strawberry|morango|fresa
🍒 cherries|cereja|cerezas
🍑 peach|pêssego|melocotón durazno
🥭 mango|manga|mango
🍍 pineapple|abacaxi|piña
🥥 coconut|coco|coco
🥝 kiwi|kiwi|kiwi
🍅 tomato|tomate|tomate
🥑 avocado|abacate|aguacate palta
🥦 broccoli|brócolis|brócoli
🥕 carrot|cenoura|zanahoria
🌽 corn|milho|maíz
🌶️ hot pepper chili|pimenta|chile picante
🥔 potato|batata|papa patata
🥐 croissant|croissant|cruasán
🍞 bread|pão|pan
🧀 cheese|queijo|queso
🥚 egg|ovo|huevo
🍳 cooking fried egg|ovo frito cozinhar|huevo frito cocinar
🥓 bacon|bacon|tocino
🍗 chicken leg|coxa de frango|muslo de pollo
🍖 meat bone|carne|carne
🍔 hamburger burger|hambúrguer|hamburguesa
🍟 fries|batata frita|papas fritas
🍕 pizza|pizza|pizza
🌭 hot dog|cachorro-quente|perrito caliente
🥪 sandwich|sanduíche|sándwich
🌮 taco|taco|taco
🌯 burrito|burrito|burrito
🥗 salad|salada|ensalada
🍝 spaghetti pasta|macarrão espaguete|espagueti pasta
🍜 noodles ramen|lámen|fideos ramen
🍣 sushi|sushi|sushi
🍤 shrimp|camarão|camarón gamba
🍦 ice cream soft|sorvete|helado
🍰 cake slice|bolo fatia|pastel tarta
🎂 birthday cake|bolo de aniversário|pastel de cumpleaños
🧁 cupcake|cupcake bolinho|magdalena
🍫 chocolate|chocolate|chocolate
🍬 candy|bala doce|caramelo dulce
🍭 lollipop|pirulito|piruleta
🍩 doughnut|rosquinha donut|dona rosquilla
🍪 cookie|biscoito bolacha|galleta
🍯 honey|mel|miel
☕ coffee hot|café|café
🍵 tea|chá|té
🧃 juice box|suco|jugo zumo
🥤 cup straw soda|refrigerante copo|refresco vaso
🍺 beer|cerveja|cerveza
🍻 cheers beers|brinde cervejas|brindis cervezas
🍷 wine|vinho|vino
🥂 toast champagne|brinde champanhe|brindis champán
🍹 cocktail tropical|drinque coquetel|cóctel
🍽️ plate cutlery|prato talheres|plato cubiertos
`,
  activities: `
⚽ soccer football|futebol bola|fútbol balón
🏀 basketball|basquete|baloncesto
🏈 american football|futebol americano|fútbol americano
⚾ baseball|beisebol|béisbol
🎾 tennis|tênis|tenis
🏐 volleyball|vôlei|voleibol
🏓 ping pong|pingue-pongue|ping pong
🥊 boxing glove|luva de boxe|guante de boxeo
🏋️ weight lifting gym|academia musculação|gimnasio pesas
🚴 cycling bike|ciclismo bicicleta|ciclismo bicicleta
🏊 swimming|natação|natación
🧘 yoga|ioga|yoga
🏆 trophy winner|troféu campeão|trofeo campeón
🥇 gold medal first|medalha de ouro|medalla de oro
🥈 silver medal second|medalha de prata|medalla de plata
🥉 bronze medal third|medalha de bronze|medalla de bronce
🏅 medal|medalha|medalla
🎖️ military medal|condecoração|condecoración
🎯 target bullseye goal|alvo meta|diana objetivo
🎮 video game|videogame jogo|videojuego
🎲 dice game|dado jogo|dado juego
🧩 puzzle|quebra-cabeça|rompecabezas
🎨 art palette|arte pintura|arte pintura
🎬 movie clapper|cinema filme|cine película
🎤 microphone sing|microfone cantar|micrófono cantar
🎧 headphones music|fones música|auriculares música
🎵 music note|nota musical|nota musical
🎶 music notes|notas musicais|notas musicales
🎸 guitar|violão guitarra|guitarra
🎹 piano keyboard|piano teclado|piano teclado
🥁 drum|tambor bateria|tambor batería
🎉 party popper celebrate|festa comemoração|fiesta celebración
🎊 confetti ball|confete|confeti
🎈 balloon|balão|globo
🎁 gift present|presente|regalo
🎀 ribbon bow|laço fita|lazo cinta
🎗️ reminder ribbon|fita lembrete|cinta recordatorio
🎟️ ticket admission|ingresso|entrada boleto
🪅 piñata|pinhata|piñata
🎃 pumpkin halloween|abóbora halloween|calabaza halloween
🎆 fireworks|fogos de artifício|fuegos artificiales
✨ sparkles|brilhos faíscas|destellos brillos
`,
  travel: `
🚗 car|carro|coche auto
🚕 taxi|táxi|taxi
🚌 bus|ônibus|autobús
🚑 ambulance|ambulância|ambulancia
🚒 fire engine|caminhão de bombeiros|camión de bomberos
🚓 police car|viatura polícia|coche de policía
🚚 delivery truck shipping|caminhão entrega|camión reparto envío
🚛 lorry truck|carreta|camión
🏍️ motorcycle|moto|moto
🛵 scooter delivery|motoboy scooter|scooter moto
🚲 bicycle|bicicleta|bicicleta
🛴 kick scooter|patinete|patinete
🚨 siren alert|sirene alerta|sirena alerta
🚦 traffic light|semáforo|semáforo
🚧 construction|obras|obras
⛽ fuel pump gas|posto combustível|gasolinera
🚆 train|trem|tren
🚇 metro subway|metrô|metro
✈️ airplane flight|avião voo|avión vuelo
🛫 departure|decolagem|despegue
🛬 arrival|pouso|aterrizaje
🚀 rocket launch|foguete lançamento|cohete lanzamiento
🚁 helicopter|helicóptero|helicóptero
⛵ sailboat|veleiro|velero
🚢 ship|navio|barco
⚓ anchor|âncora|ancla
🗺️ map|mapa|mapa
📍 pin location|localização alfinete|ubicación chincheta
🧭 compass|bússola|brújula
🏠 house home|casa lar|casa hogar
🏡 house garden|casa com jardim|casa con jardín
🏢 office building|prédio escritório|edificio oficina
🏬 store mall|loja shopping|tienda centro comercial
🏪 convenience store|loja conveniência|tienda
🏥 hospital|hospital|hospital
🏦 bank|banco|banco
🏨 hotel|hotel|hotel
🏫 school|escola|escuela
⛪ church|igreja|iglesia
🏖️ beach|praia|playa
⛰️ mountain|montanha|montaña
🌋 volcano|vulcão|volcán
🏕️ camping|acampamento|camping
🌃 night city|noite cidade|noche ciudad
🗽 statue of liberty|estátua da liberdade|estatua de la libertad
🎡 ferris wheel|roda-gigante|noria
`,
  objects: `
📱 mobile phone cell|celular telefone|móvil celular
💻 laptop computer|notebook computador|portátil computadora
🖥️ desktop computer|computador|computadora
⌨️ keyboard|teclado|teclado
🖨️ printer|impressora|impresora
🖱️ mouse computer|mouse|ratón
💾 floppy save|disquete salvar|disquete guardar
📷 camera photo|câmera foto|cámara foto
📸 camera flash|foto flash|foto flash
🎥 movie camera video|câmera de vídeo|cámara de video
📺 television tv|televisão|televisión
📞 telephone call|telefone ligação|teléfono llamada
☎️ phone|telefone|teléfono
📠 fax|fax|fax
🔋 battery|bateria|batería
🔌 plug|tomada|enchufe
💡 light bulb idea|lâmpada ideia|bombilla idea
🔦 flashlight|lanterna|linterna
🕯️ candle|vela|vela
💸 money flying|dinheiro voando|dinero volando
💵 dollar banknote|nota dólar|billete dólar
💰 money bag|saco de dinheiro|bolsa de dinero
💳 credit card|cartão de crédito|tarjeta de crédito
🧾 receipt invoice|recibo nota fiscal|recibo factura
💎 gem diamond|diamante joia|diamante joya
⚖️ balance scale justice|balança justiça|balanza justicia
🔧 wrench tool|chave inglesa ferramenta|llave herramienta
🔨 hammer|martelo|martillo
🛠️ tools|ferramentas|herramientas
⚙️ gear settings|engrenagem configuração|engranaje configuración
🔩 nut bolt|porca parafuso|tuerca tornillo
🧰 toolbox|caixa de ferramentas|caja de herramientas
🧲 magnet|ímã|imán
🔑 key|chave|llave
🗝️ old key|chave antiga|llave antigua
🔒 locked|cadeado fechado|candado cerrado
🔓 unlocked|cadeado aberto|candado abierto
🚪 door|porta|puerta
🛒 shopping cart|carrinho de compras|carrito de compras
🛍️ shopping bags|sacolas compras|bolsas compras
📦 package box|pacote caixa encomenda|paquete caja
📫 mailbox|caixa de correio|buzón
✉️ envelope letter|envelope carta|sobre carta
📧 email|e-mail|correo electrónico
📨 incoming envelope|mensagem recebida|mensaje entrante
📝 memo note|anotação nota|nota memo
✏️ pencil|lápis|lápiz
🖊️ pen|caneta|bolígrafo
📎 paperclip attach|clipe anexo|clip adjunto
📌 pushpin|tachinha|chincheta
✂️ scissors|tesoura|tijeras
📄 document page|documento página|documento página
📑 bookmark tabs|marcadores|marcadores
📊 bar chart|gráfico de barras|gráfico de barras
📈 chart increasing|gráfico subindo|gráfico subiendo
📉 chart decreasing|gráfico descendo|gráfico bajando
📋 clipboard|prancheta|portapapeles
📁 folder|pasta|carpeta
📅 calendar date|calendário data|calendario fecha
📆 tear-off calendar|calendário|calendario
🗓️ spiral calendar|agenda|agenda
📚 books|livros|libros
📖 open book|livro aberto|libro abierto
🔖 bookmark|marcador|marcapáginas
🏷️ label tag|etiqueta|etiqueta
⏰ alarm clock|despertador|despertador
⏳ hourglass wait|ampulheta espera|reloj de arena espera
⌛ hourglass done|ampulheta|reloj de arena
⏱️ stopwatch|cronômetro|cronómetro
🕐 clock time|relógio hora|reloj hora
🔔 bell notification|sino notificação|campana notificación
🔕 bell off mute|sino desligado|campana silenciada
📢 loudspeaker announcement|alto-falante anúncio|altavoz anuncio
📣 megaphone|megafone|megáfono
🔍 search magnifying|lupa buscar|lupa buscar
💊 pill medicine|remédio comprimido|pastilla medicina
💉 syringe vaccine|seringa vacina|jeringa vacuna
🩺 stethoscope|estetoscópio|estetoscopio
🧴 lotion bottle|loção frasco|loción frasco
🧹 broom clean|vassoura limpar|escoba limpiar
🧺 basket|cesta|cesta
🧸 teddy bear|ursinho de pelúcia|osito de peluche
👕 t-shirt|camiseta|camiseta
👗 dress|vestido|vestido
👟 sneaker shoe|tênis sapato|zapatilla zapato
👜 handbag|bolsa|bolso
👓 glasses|óculos|gafas
⌚ watch|relógio de pulso|reloj de pulsera
💍 ring|anel|anillo
`,
  symbols: `
❤️ red heart love|coração vermelho amor|corazón rojo amor
🧡 orange heart|coração laranja|corazón naranja
💛 yellow heart|coração amarelo|corazón amarillo
💚 green heart|coração verde|corazón verde
💙 blue heart|coração azul|corazón azul
💜 purple heart|coração roxo|corazón morado
🖤 black heart|coração preto|corazón negro
🤍 white heart|coração branco|corazón blanco
🤎 brown heart|coração marrom|corazón marrón
💔 broken heart|coração partido|corazón roto
❣️ heart exclamation|coração exclamação|corazón exclamación
💕 two hearts|dois corações|dos corazones
💞 revolving hearts|corações girando|corazones girando
💓 beating heart|coração batendo|corazón latiendo
💗 growing heart|coração crescendo|corazón creciendo
💖 sparkling heart|coração brilhante|corazón brillante
💘 heart arrow cupid|coração flechado cupido|corazón flechado cupido
💝 heart ribbon gift|coração com laço|corazón con lazo
💯 hundred points perfect|cem pontos perfeito|cien puntos perfecto
💢 anger symbol|símbolo de raiva|símbolo de enojo
💥 collision boom|explosão|explosión
💫 dizzy star|estrela tonta|estrella mareada
💦 sweat droplets|gotas de suor|gotas de sudor
💨 dash fast|correndo rápido vento|rápido viento
💬 speech balloon chat|balão de fala conversa|globo de diálogo chat
💭 thought balloon|balão de pensamento|globo de pensamiento
🗯️ anger bubble|balão de raiva|globo de enojo
💤 zzz sleep|sono zzz|sueño zzz
✅ check mark done yes|feito certo confirmado|hecho correcto confirmado
☑️ check box|caixa marcada|casilla marcada
✔️ check|certo visto|visto
❌ cross mark no wrong|errado não x|equis no incorrecto
❎ cross button|botão x|botón x
➕ plus add|mais adicionar|más añadir
➖ minus|menos|menos
➗ divide|dividir|dividir
✖️ multiply|multiplicar|multiplicar
❓ question mark|interrogação pergunta|interrogación pregunta
❔ white question|pergunta|pregunta
❗ exclamation important|exclamação importante|exclamación importante
‼️ double exclamation|dupla exclamação|doble exclamación
⁉️ exclamation question|exclamação interrogação|exclamación interrogación
⚠️ warning attention|atenção aviso|advertencia atención
🚫 prohibited forbidden|proibido|prohibido
⛔ no entry|entrada proibida|prohibido el paso
🔞 under eighteen|menores de dezoito|menores de dieciocho
♻️ recycle|reciclar|reciclar
🆗 ok button|botão ok|botón ok
🆕 new|novo|nuevo
🆓 free|grátis|gratis
🆙 up|para cima|arriba
🆒 cool|legal|genial
🔝 top|topo|arriba
🔜 soon|em breve|pronto
ℹ️ information|informação|información
🔴 red circle|círculo vermelho|círculo rojo
🟠 orange circle|círculo laranja|círculo naranja
🟡 yellow circle|círculo amarelo|círculo amarillo
🟢 green circle|círculo verde|círculo verde
🔵 blue circle|círculo azul|círculo azul
⚫ black circle|círculo preto|círculo negro
⚪ white circle|círculo branco|círculo blanco
🔶 orange diamond|losango laranja|rombo naranja
🔷 blue diamond|losango azul|rombo azul
▶️ play|reproduzir|reproducir
⏸️ pause|pausa|pausa
⏹️ stop|parar|detener
⏩ fast forward|avançar|avanzar
⏪ rewind|voltar|retroceder
🔁 repeat|repetir|repetir
🔄 arrows refresh|atualizar setas|actualizar flechas
➡️ right arrow|seta direita|flecha derecha
⬅️ left arrow|seta esquerda|flecha izquierda
⬆️ up arrow|seta para cima|flecha arriba
⬇️ down arrow|seta para baixo|flecha abajo
↩️ return arrow reply|seta de retorno responder|flecha de retorno responder
🔗 link|link corrente|enlace
©️ copyright|direitos autorais|derechos de autor
®️ registered|marca registrada|marca registrada
™️ trade mark|marca comercial|marca comercial
#️⃣ number sign hash|cerquilha jogo da velha|almohadilla numeral
1️⃣ one|um|uno
2️⃣ two|dois|dos
3️⃣ three|três|tres
4️⃣ four|quatro|cuatro
5️⃣ five|cinco|cinco
6️⃣ six|seis|seis
7️⃣ seven|sete|siete
8️⃣ eight|oito|ocho
9️⃣ nine|nove|nueve
0️⃣ zero|zero|cero
🔟 ten|dez|diez
🏁 checkered flag finish|bandeira quadriculada chegada|bandera a cuadros meta
🚩 red flag|bandeira vermelha|bandera roja
🏳️ white flag|bandeira branca|bandera blanca
🏳️‍🌈 rainbow flag|bandeira arco-íris|bandera arcoíris
🇧🇷 brazil flag|bandeira brasil|bandera brasil
🇵🇹 portugal flag|bandeira portugal|bandera portugal
🇪🇸 spain flag|bandeira espanha|bandera españa
🇺🇸 united states flag|bandeira estados unidos|bandera estados unidos
🇦🇷 argentina flag|bandeira argentina|bandera argentina
🇲🇽 mexico flag|bandeira méxico|bandera méxico
`,
};

/** Lower case without accents, so "coracao" finds "coração". */
export function searchable(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** Every emoji of the table, in category order. */
export const EMOJI: EmojiEntry[] = EMOJI_CATEGORIES.flatMap((category) =>
  TABLE[category]
    .trim()
    .split("\n")
    .map((line) => {
      const space = line.indexOf(" ");
      return { emoji: line.slice(0, space), category, words: searchable(line.slice(space + 1).replaceAll("|", " ")) };
    }),
);

/** The emoji whose words in any of the three languages start with each word of `query` (all of them). */
export function findEmoji(query: string): EmojiEntry[] {
  const terms = searchable(query).split(/\s+/).filter(Boolean);
  if (terms.length === 0) return [];
  return EMOJI.filter((entry) => {
    const words = entry.words.split(/[\s-]+/);
    return terms.every((term) => words.some((word) => word.startsWith(term)));
  });
}
